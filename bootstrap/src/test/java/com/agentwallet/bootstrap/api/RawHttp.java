package com.agentwallet.bootstrap.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A request of exactly the given bytes on a TLS connection of its own, for what the HTTP client
 * refuses to send (a header name with a space, two lengths, a folded header line). The request
 * should say {@code Connection: close}: the answer is everything the server sends until it closes.
 */
final class RawHttp {
    private RawHttp() {
    }

    static ApiResponse send(ApiServer server, byte[] request) {
        try (Socket socket = server.openTlsSocket()) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            return parse(new String(request, StandardCharsets.UTF_8), readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            all.write(buffer, 0, read);
        }
        return all.toByteArray();
    }

    /**
     * Status line, header lines up to the empty line, then the body; only the headers of the first
     * answer. The request's own line names the method and path the answer is checked for.
     */
    private static ApiResponse parse(String request, byte[] answer) {
        String text = new String(answer, StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalStateException("not an HTTP answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim(), name -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        String[] requestLine = request.split("\r\n", 2)[0].split(" ");
        return ApiResponse.of(requestLine[0], requestLine.length > 1 ? requestLine[1] : "", status,
                HttpHeaders.of(headers, (name, value) -> true), text.substring(end + 4));
    }
}
