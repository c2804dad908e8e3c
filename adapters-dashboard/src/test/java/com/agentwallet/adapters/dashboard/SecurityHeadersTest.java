package com.agentwallet.adapters.dashboard;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The filter on its own; the browser tests see its headers on the real server over HTTPS. */
class SecurityHeadersTest {
    @Test
    void plainHttpIsRefusedWithTheHeadersAndNeverReachesThePages() throws Exception {
        Exchange exchange = new Exchange("/dashboard/assets/cosign.js", false, null);
        new SecurityHeaders(false).doFilter(exchange.request(), exchange.response(), (req, res) -> exchange.passed = true);
        assertThat(exchange.passed).isFalse();
        assertThat(exchange.status).isEqualTo(403);
        assertThat(exchange.body.toString(StandardCharsets.UTF_8)).contains("HTTPS only");
        assertThat(exchange.headers).containsEntry("Cache-Control", "no-store")
                .containsEntry("Content-Security-Policy", SecurityHeaders.CONTENT_SECURITY_POLICY)
                .containsEntry("X-Frame-Options", "DENY");
    }

    @Test
    void aProxysForwardedHttpsCountsOnlyWhenTrusted() throws Exception {
        Exchange untrusted = new Exchange("/dashboard/sign-in", false, "https");
        new SecurityHeaders(false).doFilter(untrusted.request(), untrusted.response(), (req, res) -> untrusted.passed = true);
        assertThat(untrusted.passed).isFalse();

        Exchange trusted = new Exchange("/dashboard/sign-in", false, "https");
        new SecurityHeaders(true).doFilter(trusted.request(), trusted.response(), (req, res) -> trusted.passed = true);
        assertThat(trusted.passed).isTrue();
        assertThat(trusted.headers).containsEntry("Cache-Control", "no-store");
    }

    @Test
    void assetsMayBeCachedBrieflyAndPagesNot() throws Exception {
        Exchange asset = new Exchange("/dashboard/assets/dashboard.css", true, null);
        new SecurityHeaders(false).doFilter(asset.request(), asset.response(), (req, res) -> asset.passed = true);
        assertThat(asset.passed).isTrue();
        assertThat(asset.headers).containsEntry("Cache-Control", SecurityHeaders.ASSET_CACHE)
                .containsEntry("X-Content-Type-Options", "nosniff").containsEntry("Referrer-Policy", "no-referrer");
    }

    /** The few request and response methods the filter uses, recorded. */
    private static final class Exchange {
        final Map<String, String> headers = new HashMap<>();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        int status = 200;
        boolean passed;
        private final String uri;
        private final boolean secure;
        private final String forwardedProto;

        Exchange(String uri, boolean secure, String forwardedProto) {
            this.uri = uri;
            this.secure = secure;
            this.forwardedProto = forwardedProto;
        }

        HttpServletRequest request() {
            return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[]{HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "getRequestURI" -> uri;
                        case "isSecure" -> secure;
                        case "getHeader" -> "X-Forwarded-Proto".equalsIgnoreCase((String) args[0]) ? forwardedProto : null;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        HttpServletResponse response() {
            return (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[]{HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                        case "setStatus" -> status = (int) args[0];
                        case "setContentType" -> headers.put("Content-Type", (String) args[0]);
                        case "getOutputStream" -> new ServletOutputStream() {
                            @Override
                            public void write(int b) {
                                body.write(b);
                            }

                            @Override
                            public boolean isReady() {
                                return true;
                            }

                            @Override
                            public void setWriteListener(WriteListener listener) {
                                throw new UnsupportedOperationException();
                            }
                        };
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }
}
