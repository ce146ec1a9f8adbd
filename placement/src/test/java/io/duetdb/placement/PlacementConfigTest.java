package io.duetdb.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.duetdb.common.config.ConfigFiles;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;

class PlacementConfigTest {
    @Test
    void defaultsAreTheDocumentedOnes() {
        PlacementConfig config = new PlacementConfig().validate();
        assertThat(config.name()).isEqualTo("pd-1");
        assertThat(config.dataDir()).isEqualTo(Path.of("data", "pd-1"));
        assertThat(config.clientAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:2379"));
        assertThat(config.peerAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:2380"));
        assertThat(config.statusAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:2381"));
        assertThat(config.initialCluster()).containsExactly("pd-1=127.0.0.1:2380");
        assertThat(config.electionTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.tsoSaveInterval()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.maxReplicas()).isEqualTo(3);
        assertThat(config.storeDisconnectTime()).isEqualTo(Duration.ofSeconds(20));
        assertThat(config.maxStoreDownTime()).isEqualTo(Duration.ofMinutes(30));
        assertThat(config.scheduleInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.leaderScheduleLimit()).isEqualTo(4);
        assertThat(config.regionScheduleLimit()).isEqualTo(2);
        assertThat(config.operatorTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.snapshotThreshold()).isEqualTo(10_000);
        assertThat(config.gcLifeTime()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void everyKeyMapsFromToml() {
        PlacementConfig config = ConfigFiles.overlay("pd-2.toml", """
                name = "pd-2"
                data-dir = "/var/lib/duet/pd-2"
                client-address = "10.0.0.2:2379"
                peer-address = "10.0.0.2:2380"
                status-address = "10.0.0.2:2381"
                initial-cluster = ["pd-1=10.0.0.1:2380", "pd-2=10.0.0.2:2380", "pd-3=10.0.0.3:2380"]
                election-timeout = "2s"
                tso-save-interval = "5s"
                max-replicas = 5
                store-disconnect-time = "30s"
                max-store-down-time = "1h"
                schedule-interval = "10s"
                leader-schedule-limit = 8
                region-schedule-limit = 3
                operator-timeout = "5m"
                snapshot-threshold = 5000
                gc-life-time = "30m"
                """, new PlacementConfig()).validate();
        assertThat(config.name()).isEqualTo("pd-2");
        assertThat(config.dataDir()).isEqualTo(Path.of("/var/lib/duet/pd-2"));
        assertThat(config.initialClusterMembers()).containsKeys("pd-1", "pd-2", "pd-3");
        assertThat(config.electionTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.tsoSaveInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.maxReplicas()).isEqualTo(5);
        assertThat(config.storeDisconnectTime()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.maxStoreDownTime()).isEqualTo(Duration.ofHours(1));
        assertThat(config.scheduleInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.leaderScheduleLimit()).isEqualTo(8);
        assertThat(config.regionScheduleLimit()).isEqualTo(3);
        assertThat(config.operatorTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.snapshotThreshold()).isEqualTo(5000);
        assertThat(config.gcLifeTime()).isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void inconsistentValuesAreOneLineErrors() {
        assertThatThrownBy(() -> new PlacementConfig().setName("pd-9").validate())
                .isInstanceOf(DuetException.class).hasMessageContaining("does not list this member's name 'pd-9'");
        assertThatThrownBy(() -> new PlacementConfig().setPeerAddress(HostAndPort.parse("127.0.0.1:9999")).validate())
                .hasMessageContaining("peer-address is 127.0.0.1:9999");
        assertThatThrownBy(() -> new PlacementConfig().setInitialCluster(List.of("pd-1")).validate())
                .hasMessageContaining("is not name=host:port");
        assertThatThrownBy(() -> new PlacementConfig().setInitialCluster(List.of("pd-1=127.0.0.1:2380",
                "pd-1=127.0.0.1:2390")).validate()).hasMessageContaining("twice");
        assertThatThrownBy(() -> new PlacementConfig().setMaxReplicas(0).validate()).hasMessageContaining("max-replicas");
        assertThatThrownBy(() -> new PlacementConfig().setMaxStoreDownTime(Duration.ofSeconds(5)).validate())
                .hasMessageContaining("must exceed store-disconnect-time");
        assertThatThrownBy(() -> new PlacementConfig().setStatusAddress(HostAndPort.parse("127.0.0.1:2379")).validate())
                .hasMessageContaining("must differ");
    }

    @Test
    void unknownKeysAreRefused() {
        assertThatThrownBy(() -> ConfigFiles.overlay("pd.toml", "name = \"pd-1\"\nmax-replica = 3\n", new PlacementConfig()))
                .hasMessage("config file pd.toml: unknown key 'max-replica' (line 2)");
    }
}
