package com.agentwallet.archfixture.edge;

import com.agentwallet.archfixture.adapters.three.AdapterThree;

/** Breaks the edge rule: what the adapters share calling one of them. */
public final class BadEdgeOnAdapter {
    public String name(AdapterThree adapter) {
        return adapter.toString();
    }
}
