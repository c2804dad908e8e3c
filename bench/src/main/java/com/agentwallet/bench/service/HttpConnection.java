package com.agentwallet.bench.service;

import com.agentwallet.adapters.http.webhook.ReceiverTls;

import javax.net.SocketFactory;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One HTTP/1.1 connection kept alive across requests, over TLS or plain TCP, for one client thread
 * of the load tool. It is deliberately small: the load generator shares two cores with the server
 * and PostgreSQL, so a request is one socket write (request line, headers and body together), the
 * response is parsed from a buffer of its own, and little is allocated per request: the request's
 * bytes and the body's string. Bodies come with a Content-Length or chunked; a body can also
 * be streamed to a {@link Sink} (an export file of a million rows is never held in memory).
 *
 * <p>When the server closes the connection (an idle timeout between requests, or
 * {@code Connection: close}), the next request opens a new one; every connection opened is counted
 * in the shared counter, so that keep-alive is proven by "as many connections as clients".
 */
final class HttpConnection implements Closeable {
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final int READ_TIMEOUT_MS = 120_000;

    /** A complete response: the status and the body as text. */
    record Response(int status, String body) {
    }

    /** Where a streamed body goes, piece by piece. */
    @FunctionalInterface
    interface Sink {
        void accept(byte[] bytes, int offset, int length);
    }

    private final SocketFactory factory;
    private final String host;
    private final int port;
    /** The headers every request carries (Host, Authorization), CRLF-terminated. */
    private final String fixedHeaders;
    private final AtomicInteger opened;

    private Socket socket;
    private OutputStream out;
    private InputStream in;
    private final byte[] buffer = new byte[16 * 1024];
    private int position;
    private int limit;
    private byte[] line = new byte[256];
    private byte[] body = new byte[8 * 1024];
    private int bodyLength;
    private final Sink collect = this::collect;
    private int status;
    private long contentLength;
    private boolean chunked;
    private boolean closeAfter;
    /** Whether any byte of the current response has arrived: until then, a failed exchange may be repeated. */
    private boolean answered;

    private HttpConnection(SocketFactory factory, String host, int port, String authorization, AtomicInteger opened) {
        this.factory = factory;
        this.host = host;
        this.port = port;
        this.fixedHeaders = "Host: " + host + ":" + port + "\r\n"
                + (authorization == null ? "" : "Authorization: " + authorization + "\r\n");
        this.opened = opened;
    }

    /** HTTPS trusting any certificate: the server under test has a self-signed one made at its first start. */
    static HttpConnection https(String host, int port, String authorization, AtomicInteger opened) {
        return new HttpConnection(TRUST_ALL, host, port, authorization, opened);
    }

    static HttpConnection http(String host, int port, AtomicInteger opened) {
        return new HttpConnection(SocketFactory.getDefault(), host, port, null, opened);
    }

    /** Connects now, so that a client's first request does not carry the TLS handshake. */
    void open() throws IOException {
        ensureOpen();
    }

    /** Sends a request (a body as JSON when given) and reads the whole response. */
    Response send(String method, String target, String jsonBody, String... headers) throws IOException {
        exchange(request(method, target, jsonBody, headers));
        bodyLength = 0;
        body(collect);
        return new Response(status, new String(body, 0, bodyLength, StandardCharsets.UTF_8));
    }

    private void collect(byte[] bytes, int offset, int length) {
        if (bodyLength + length > body.length) {
            body = Arrays.copyOf(body, Math.max(body.length * 2, bodyLength + length));
        }
        System.arraycopy(bytes, offset, body, bodyLength, length);
        bodyLength += length;
    }

    /** Sends a {@code GET} and streams the body to {@code sink}; answers the status. */
    int stream(String target, Sink sink) throws IOException {
        exchange(request("GET", target, null));
        body(sink);
        return status;
    }

    /** Reads the body; a connection that failed in the middle of one is of no further use. */
    private void body(Sink sink) throws IOException {
        try {
            readBody(sink);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Writes the request and reads the status line and headers. A connection the server closed
     * while it was idle shows as a failed write or an end of stream before any response byte: the
     * request is then sent once more on a new connection (every request of the tool may be repeated:
     * payments carry an idempotency key, the rest are reads).
     */
    private void exchange(byte[] request) throws IOException {
        boolean reused = socket != null;
        try {
            send(request);
        } catch (IOException e) {
            if (!reused || answered) {
                close();
                throw e;
            }
            close();
            send(request);
        }
    }

    private void send(byte[] request) throws IOException {
        ensureOpen();
        answered = false;
        out.write(request);
        out.flush();
        readHead();
    }

    private byte[] request(String method, String target, String jsonBody, String... headers) {
        StringBuilder head = new StringBuilder(256 + (jsonBody == null ? 0 : jsonBody.length()));
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n").append(fixedHeaders);
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        byte[] payload = jsonBody == null ? null : jsonBody.getBytes(StandardCharsets.UTF_8);
        if (payload != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(payload.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.UTF_8);
        if (payload == null) {
            return headBytes;
        }
        byte[] all = Arrays.copyOf(headBytes, headBytes.length + payload.length);
        System.arraycopy(payload, 0, all, headBytes.length, payload.length);
        return all;
    }

    private void ensureOpen() throws IOException {
        if (socket != null) {
            return;
        }
        Socket s = factory.createSocket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            s.setSoTimeout(READ_TIMEOUT_MS);
            if (s instanceof SSLSocket tls) {
                tls.startHandshake();
            }
            out = s.getOutputStream();
            in = s.getInputStream();
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        position = 0;
        limit = 0;
        opened.incrementAndGet();
    }

    private void readHead() throws IOException {
        int length = readLine();
        if (length < 12 || line[0] != 'H' || line[8] != ' ') {
            throw new IOException("not an HTTP status line: " + new String(line, 0, length, StandardCharsets.ISO_8859_1));
        }
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        contentLength = -1;
        chunked = false;
        closeAfter = false;
        while ((length = readLine()) > 0) {
            if (startsWithIgnoringCase(length, "content-length:")) {
                contentLength = Long.parseLong(value(length, 15));
            } else if (startsWithIgnoringCase(length, "transfer-encoding:")) {
                chunked = value(length, 18).equalsIgnoreCase("chunked");
            } else if (startsWithIgnoringCase(length, "connection:")) {
                closeAfter = value(length, 11).equalsIgnoreCase("close");
            }
        }
    }

    private void readBody(Sink sink) throws IOException {
        if (chunked) {
            for (long size; (size = Long.parseLong(chunkSize(), 16)) > 0; ) {
                copy(size, sink);
                readLine();
            }
            while (readLine() > 0) {
                // trailers: none expected, read to the blank line
            }
        } else if (contentLength >= 0) {
            copy(contentLength, sink);
        } else {
            // Neither length nor chunks: the body is what came with the head, then all until the connection ends.
            closeAfter = true;
            do {
                sink.accept(buffer, position, limit - position);
                position = limit;
            } while (fill());
        }
        if (closeAfter) {
            close();
        }
    }

    private String chunkSize() throws IOException {
        String size = new String(line, 0, readLine(), StandardCharsets.ISO_8859_1);
        int extension = size.indexOf(';');
        return (extension < 0 ? size : size.substring(0, extension)).trim();
    }

    private void copy(long length, Sink sink) throws IOException {
        long left = length;
        while (left > 0) {
            if (position == limit && !fill()) {
                throw new EOFException("the connection closed " + left + " bytes before the end of the body");
            }
            int n = (int) Math.min(left, limit - position);
            sink.accept(buffer, position, n);
            position += n;
            left -= n;
        }
    }

    /** Reads a line into {@link #line} without its CRLF; answers its length. */
    private int readLine() throws IOException {
        int length = 0;
        while (true) {
            if (position == limit && !fill()) {
                throw new EOFException("the connection closed in the middle of a response head");
            }
            byte b = buffer[position++];
            answered = true;
            if (b == '\n') {
                return length > 0 && line[length - 1] == '\r' ? length - 1 : length;
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, length * 2);
            }
            line[length++] = b;
        }
    }

    private boolean fill() throws IOException {
        int n = in.read(buffer);
        if (n <= 0) {
            return false;
        }
        position = 0;
        limit = n;
        return true;
    }

    private boolean startsWithIgnoringCase(int length, String prefix) {
        if (length < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (Character.toLowerCase((char) line[i]) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private String value(int length, int from) {
        return new String(line, from, length - from, StandardCharsets.ISO_8859_1).trim();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a connection the tool is done with; nothing to do about it
            }
            socket = null;
        }
    }

    /** The server under test is on this machine, with a certificate it made itself: any certificate is trusted. */
    private static final SSLSocketFactory TRUST_ALL = ReceiverTls.of(true).getSocketFactory();
}
