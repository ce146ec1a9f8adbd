package io.duetdb.placement.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.duetdb.common.config.HostAndPort;

/** Which members' peer (Raft) ports accept connections: what a member waiting for a leader reports. */
public final class MemberReachability {
    private MemberReachability() {
    }

    /** "reachable: pd-1 (this member), pd-2; not yet: pd-3 at 10.0.0.3:2380". */
    public static String describe(String self, Map<String, HostAndPort> members, Duration timeout) {
        List<String> reachable = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        for (Map.Entry<String, HostAndPort> member : members.entrySet()) {
            if (member.getKey().equals(self)) {
                reachable.add(self + " (this member)");
            } else if (accepts(member.getValue(), timeout)) {
                reachable.add(member.getKey());
            } else {
                unreachable.add(member.getKey() + " at " + member.getValue());
            }
        }
        int quorum = members.size() / 2 + 1;
        String summary = reachable.size() + " of " + members.size() + " members reachable, " + quorum
                + " elect a leader (reachable: " + String.join(", ", reachable);
        return summary + (unreachable.isEmpty() ? ")" : "; not yet: " + String.join(", ", unreachable) + ")");
    }

    private static boolean accepts(HostAndPort address, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.host(), address.port()), (int) timeout.toMillis());
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
