package com.agentwallet.client;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy to a TLS 1.2 server that lets the first connection's request through and then cuts that
 * connection at the server's first application-data record (the response), so the server has done the
 * work and the client never hears of it. Later connections pass untouched.
 */
final class ResponseDroppingProxy implements AutoCloseable {
    private static final int APPLICATION_DATA = 23;

    private final ServerSocket listener;
    private final int target;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();

    ResponseDroppingProxy(int targetPort) throws IOException {
        this.target = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    int connections() {
        return connections.get();
    }

    int droppedResponses() {
        return dropped.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                boolean first = connections.incrementAndGet() == 1;
                pump(client.getInputStream(), upstream.getOutputStream(), client, upstream);
                if (first) {
                    start(() -> cutAtFirstResponse(upstream, client));
                } else {
                    pump(upstream.getInputStream(), client.getOutputStream(), client, upstream);
                }
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void cutAtFirstResponse(Socket upstream, Socket client) {
        try {
            DataInputStream in = new DataInputStream(upstream.getInputStream());
            OutputStream out = client.getOutputStream();
            while (true) {
                byte[] header = new byte[5];
                in.readFully(header);
                if (header[0] == APPLICATION_DATA) {
                    dropped.incrementAndGet();
                    break;
                }
                byte[] record = new byte[((header[3] & 0xff) << 8) | (header[4] & 0xff)];
                in.readFully(record);
                out.write(header);
                out.write(record);
                out.flush();
            }
        } catch (IOException ignored) {
            // the connection ends either way
        }
        closeQuietly(client, upstream);
    }

    private static void pump(InputStream in, OutputStream out, Socket a, Socket b) {
        start(() -> {
            try {
                in.transferTo(out);
            } catch (IOException ignored) {
                // one side closed
            }
            closeQuietly(a, b);
        });
    }

    private static void start(Runnable task) {
        Thread thread = new Thread(task, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket... sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
