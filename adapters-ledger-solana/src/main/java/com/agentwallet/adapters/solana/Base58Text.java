package com.agentwallet.adapters.solana;

import com.agentwallet.core.crypto.Base58;
import org.p2p.solanaj.rpc.RpcException;

/** Base58 text from the cluster, which must decode to the expected length. */
final class Base58Text {
    private Base58Text() {
    }

    static byte[] decode(String text, int length) throws RpcException {
        return Base58.decode(text, length)
                .orElseThrow(() -> new RpcException("not " + length + " bytes of base58: " + text));
    }
}
