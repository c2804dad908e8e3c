package com.agentwallet.adapters.http.view;

/** A session token and when it stops working. */
public record SessionTokenJson(String object, String walletId, String sessionToken, String expiresAt) {
}
