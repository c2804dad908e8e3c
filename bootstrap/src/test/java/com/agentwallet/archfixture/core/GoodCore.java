package com.agentwallet.archfixture.core;

import javax.crypto.Mac;
import java.util.List;

/** Depends only on what the core may use: the JDK's java.. and javax.crypto.., and its own packages. */
public final class GoodCore {
    private final List<String> names;
    private final Mac mac;

    public GoodCore(List<String> names, Mac mac) {
        this.names = List.copyOf(names);
        this.mac = mac;
    }

    public int size() {
        return names.size() + mac.getMacLength();
    }
}
