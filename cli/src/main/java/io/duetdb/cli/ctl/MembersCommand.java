package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.GetMembersResponse;
import picocli.CommandLine.Command;

@Command(name = "members", description = "The placement members and which one leads.")
final class MembersCommand extends PlacementQuery {
    @Override
    Object query(PlacementClient client) {
        GetMembersResponse response = client.getMembers();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("cluster_id", Long.toUnsignedString(client.clusterId()));
        json.put("leader", response.getLeaderName());
        json.put("raft_term", response.getRaftTerm());
        json.put("members", response.getMembersList().stream()
                .map(member -> Json.member(member, response.getLeaderName())).toList());
        return json;
    }
}
