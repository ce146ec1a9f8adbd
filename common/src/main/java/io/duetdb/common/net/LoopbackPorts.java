package io.duetdb.common.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out ports for servers started by tests and benchmarks on one machine.
 *
 * <p>Ports come from below the kernel's ephemeral range (32768 and up on Linux): a port that
 * {@code new ServerSocket(0)} returned is an ephemeral port, and an outgoing connection can take
 * it between the probe and the server's bind. Each instance starts at a random place in its range
 * and never returns the same port twice.
 */
public final class LoopbackPorts {
    private static final int FIRST = 15_000;
    private static final int LAST = 32_000;

    private final AtomicInteger next;

    public LoopbackPorts() {
        this.next = new AtomicInteger(FIRST + ThreadLocalRandom.current().nextInt(LAST - FIRST));
    }

    public int allocate() {
        for (int attempt = 0; attempt < LAST - FIRST; attempt++) {
            int port = FIRST + Math.floorMod(next.getAndIncrement() - FIRST, LAST - FIRST);
            if (bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + FIRST + " and " + LAST);
    }

    private static boolean bindable(int port) {
        try (ServerSocket loopback = new ServerSocket()) {
            loopback.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            return false;
        }
        try (ServerSocket wildcard = new ServerSocket()) {
            wildcard.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
