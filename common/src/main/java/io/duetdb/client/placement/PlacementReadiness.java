package io.duetdb.client.placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.status.Readiness.NotReady;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.Member;

/**
 * Whether placement serves its clients yet, asked of each given member directly: a member answers, names a
 * leader, and the leader has published the client address that clients are redirected to.
 */
public final class PlacementReadiness {
    public static final String MEMBERS = "placement members";
    public static final String LEADER = "placement leader";

    private PlacementReadiness() {
    }

    /** The leader's name; {@link NotReady} with what is missing while placement does not serve. */
    public static String check(List<HostAndPort> endpoints, Duration timeout) throws NotReady {
        List<String> silent = new ArrayList<>();
        GetMembersResponse answer = null;
        for (HostAndPort endpoint : endpoints) {
            Optional<GetMembersResponse> members = MemberProbe.probe(endpoint, timeout);
            if (members.isEmpty()) {
                silent.add(endpoint.toString());
                continue;
            }
            answer = members.get();
            if (!answer.getLeaderName().isEmpty()) {
                break;
            }
        }
        if (answer == null) {
            throw new NotReady(MEMBERS, "no answer from " + String.join(", ", silent));
        }
        String leader = answer.getLeaderName();
        if (leader.isEmpty()) {
            throw new NotReady(LEADER, answer.getResponderName() + " answers, no leader elected yet (members "
                    + String.join(", ", answer.getMembersList().stream().map(Member::getName).toList()) + ")");
        }
        boolean published = answer.getMembersList().stream()
                .anyMatch(member -> member.getName().equals(leader) && !member.getClientAddress().isEmpty());
        if (!published) {
            throw new NotReady(LEADER, leader + " leads but has not published its client address yet");
        }
        return leader;
    }
}
