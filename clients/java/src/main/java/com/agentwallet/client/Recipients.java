package com.agentwallet.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

import static com.agentwallet.client.Transport.encode;

/** {@code /v1/recipients}: the organisation's categories of recipient addresses, which policies can block. */
public final class Recipients {
    private final Transport transport;

    Recipients(Transport transport) {
        this.transport = transport;
    }

    public JsonNode setCategory(String address, String category) {
        return transport.json(Transport.Call.write("PUT", path(address), Map.of("category", category)));
    }

    /** The recipient's category; {@link NotFoundException} when it has none. */
    public JsonNode retrieve(String address) {
        return transport.json(Transport.Call.get(path(address), Map.of()));
    }

    private static String path(String address) {
        return "/recipients/" + encode(address);
    }
}
