package com.agentwallet.adapters.http.webhook;

import com.agentwallet.core.common.ValidationException;
import com.agentwallet.core.port.ReceiverGuard;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Receivers must be public: the host is resolved and every address it names must be a global
 * unicast address, so a webhook cannot point the service at its own network. Refused are the IANA
 * special-purpose ranges (loopback, private, shared, link-local, unique-local, documentation,
 * benchmarking, multicast, reserved, wildcard), and IPv6 forms that carry an IPv4 address
 * (compatible, NAT64, 6to4) when the address they carry is refused; Teredo tunnels are refused
 * whole, since the client address they carry is obfuscated. (IPv4-mapped IPv6 addresses need no
 * rule: Java resolves them to the IPv4 address itself.) The development switch lets local
 * receivers through.
 */
public final class ResolvingReceiverGuard implements ReceiverGuard {
    private static final List<Range> NOT_PUBLIC_V4 = List.of(
            Range.of("0.0.0.0", 8), Range.of("10.0.0.0", 8), Range.of("100.64.0.0", 10),
            Range.of("127.0.0.0", 8), Range.of("169.254.0.0", 16), Range.of("172.16.0.0", 12),
            Range.of("192.0.0.0", 24), Range.of("192.0.2.0", 24), Range.of("192.88.99.0", 24),
            Range.of("192.168.0.0", 16), Range.of("198.18.0.0", 15), Range.of("198.51.100.0", 24),
            Range.of("203.0.113.0", 24), Range.of("224.0.0.0", 4), Range.of("240.0.0.0", 4));
    private static final List<Range> NOT_PUBLIC_V6 = List.of(
            Range.of("::1", 128), Range.of("100::", 64), Range.of("2001::", 32), Range.of("2001:db8::", 32),
            Range.of("fc00::", 7), Range.of("fe80::", 10), Range.of("fec0::", 10), Range.of("ff00::", 8));
    /** IPv6 ranges whose addresses carry an IPv4 address, and the byte where it starts. */
    private static final List<Carrier> CARRIERS = List.of(
            new Carrier(Range.of("::", 96), 12), new Carrier(Range.of("64:ff9b::", 96), 12),
            new Carrier(Range.of("2002::", 16), 2));

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
                        + "' resolves to a private, loopback, link-local or reserved address ("
                        + address.getHostAddress() + "); webhooks go to public receivers");
            }
        }
    }

    static boolean isPrivate(InetAddress address) {
        return isPrivate(address.getAddress());
    }

    private static boolean isPrivate(byte[] address) {
        if (address.length == 4) {
            return NOT_PUBLIC_V4.stream().anyMatch(range -> range.contains(address));
        }
        for (Carrier carrier : CARRIERS) {
            if (carrier.range().contains(address)) {
                return isPrivate(Arrays.copyOfRange(address, carrier.offset(), carrier.offset() + 4));
            }
        }
        return NOT_PUBLIC_V6.stream().anyMatch(range -> range.contains(address));
    }

    /** A CIDR block. */
    private record Range(byte[] prefix, int bits) {
        static Range of(String literal, int bits) {
            try {
                return new Range(InetAddress.getByName(literal).getAddress(), bits);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an address literal: " + literal, e);
            }
        }

        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private record Carrier(Range range, int offset) {
    }
}
