package com.agentwallet.archfixture.edge;

import com.agentwallet.archfixture.core.GoodCore;

/** Keeps the edge rule: it depends on the core only. */
public final class GoodEdge {
    public String name(GoodCore core) {
        return core.toString();
    }
}
