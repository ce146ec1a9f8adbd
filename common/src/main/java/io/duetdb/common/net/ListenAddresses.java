package io.duetdb.common.net;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Checks, before a component waits for the rest of the cluster, that it will be able to listen where it is
 * configured to: a port in use is a bad configuration and ends the component at once, not after the wait.
 */
public final class ListenAddresses {
    private ListenAddresses() {
    }

    /** Whether a component listening on {@code address} listens on every interface. */
    public static boolean isWildcard(HostAndPort address) {
        return address.host().equals("0.0.0.0") || address.host().equals("::") || address.host().equals("[::]");
    }

    /**
     * What others dial for a listener: {@code listen} itself, or, when it listens on a wildcard address, the host of
     * the component's advertised address with the listener's port.
     */
    public static HostAndPort advertised(HostAndPort listen, HostAndPort advertisedService) {
        return isWildcard(listen) ? new HostAndPort(advertisedService.host(), listen.port()) : listen;
    }

    /** Binds {@code address} (with SO_REUSEADDR, as the servers do) and lets it go again. */
    public static void requireFree(HostAndPort address, String what) {
        if (address.port() == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address.host(), address.port()));
        } catch (BindException e) {
            if (String.valueOf(e.getMessage()).contains("in use")) {
                throw new DuetException(ErrorCode.ADDRESS_IN_USE, what + " " + address + " is already in use");
            }
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot listen on " + what + " " + address + ": "
                    + e.getMessage());
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            throw new DuetException(ErrorCode.INVALID_CONFIG, "cannot listen on " + what + " " + address + ": " + e);
        }
    }
}
