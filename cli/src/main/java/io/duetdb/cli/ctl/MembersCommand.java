package io.duetdb.cli.ctl;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.placement.GetMembersResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "members", description = "The placement members and which one leads.")
final class MembersCommand implements Callable<Integer> {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (PlacementClient client = ctl.connect()) {
            GetMembersResponse response = client.getMembers();
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("cluster_id", Long.toUnsignedString(client.clusterId()));
            json.put("leader", response.getLeaderName());
            json.put("raft_term", response.getRaftTerm());
            json.put("members", response.getMembersList().stream()
                    .map(member -> Json.member(member, response.getLeaderName())).toList());
            Json.print(spec.commandLine().getOut(), json);
        }
        return 0;
    }
}
