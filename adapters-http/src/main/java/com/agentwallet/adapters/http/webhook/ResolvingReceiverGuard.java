package com.agentwallet.adapters.http.webhook;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.port.ReceiverGuard;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Receivers must be public: the host is resolved and every address it names must be outside the
 * loopback, private, link-local, unique-local, wildcard and multicast ranges, so a webhook cannot
 * point the service at its own network. The development switch lets local receivers through.
 */
public final class ResolvingReceiverGuard implements ReceiverGuard {
    private final boolean allowPrivate;

    public ResolvingReceiverGuard(boolean allowPrivate) {
        this.allowPrivate = allowPrivate;
    }

    @Override
    public void requirePermitted(URI receiver) {
        if (allowPrivate) {
            return;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(receiver.getHost());
        } catch (UnknownHostException e) {
            throw new ValidationException("url", "The receiver's host '" + receiver.getHost() + "' does not resolve");
        }
        for (InetAddress address : addresses) {
            if (isPrivate(address)) {
                throw new ValidationException("url", "The receiver's host '" + receiver.getHost()
                        + "' resolves to a private, loopback or link-local address (" + address.getHostAddress()
                        + "); webhooks go to public receivers");
            }
        }
    }

    static boolean isPrivate(InetAddress address) {
        boolean uniqueLocal = address instanceof Inet6Address && (address.getAddress()[0] & 0xfe) == 0xfc;
        return address.isLoopbackAddress() || address.isSiteLocalAddress() || address.isLinkLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress() || uniqueLocal;
    }
}
