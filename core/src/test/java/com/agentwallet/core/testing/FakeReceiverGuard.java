package com.agentwallet.core.testing;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.port.ReceiverGuard;

import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A receiver guard without DNS: every host is permitted until a test refuses it by name. */
public final class FakeReceiverGuard implements ReceiverGuard {
    private final Set<String> refused = ConcurrentHashMap.newKeySet();

    /** From now on, receivers at {@code host} are refused as a private address would be. */
    public void refuse(String host) {
        refused.add(host.toLowerCase(Locale.ROOT));
    }

    @Override
    public void requirePermitted(URI receiver) {
        ValidationException.check(!refused.contains(receiver.getHost().toLowerCase(Locale.ROOT)), "url",
                "'url' resolves to a private, loopback or link-local address");
    }
}
