package com.agentwallet.archfixture.adapters.three;

import com.agentwallet.archfixture.core.GoodCore;

/** Allowed: an adapter depends on the core, not on another adapter. */
public final class AdapterThree {
    public int use(GoodCore core) {
        return core.size();
    }
}
