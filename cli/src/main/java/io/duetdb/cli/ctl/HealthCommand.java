package io.duetdb.cli.ctl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.duetdb.client.placement.MemberProbe;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.proto.placement.GetMembersResponse;
import io.duetdb.proto.placement.Member;
import picocli.CommandLine.Command;

@Command(name = "health", description = "Ask every placement member directly whether it answers.")
final class HealthCommand extends PlacementQuery {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    @Override
    Object query(PlacementClient client) {
        GetMembersResponse members = client.getMembers();
        List<Map<String, Object>> report = new ArrayList<>();
        int healthy = 0;
        for (Member member : members.getMembersList()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", member.getName());
            entry.put("client_address", member.getClientAddress());
            Optional<GetMembersResponse> answer = member.getClientAddress().isEmpty() ? Optional.empty()
                    : MemberProbe.probe(HostAndPort.parse(member.getClientAddress()), PROBE_TIMEOUT);
            entry.put("healthy", answer.isPresent());
            entry.put("is_leader", member.getName().equals(members.getLeaderName()));
            answer.ifPresent(a -> entry.put("raft_applied_index", a.getRaftAppliedIndex()));
            if (answer.isPresent()) {
                healthy++;
            }
            report.add(entry);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("healthy", healthy > members.getMembersCount() / 2);
        json.put("members", report);
        return json;
    }
}
