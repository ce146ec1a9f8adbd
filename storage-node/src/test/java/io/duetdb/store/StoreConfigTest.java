package io.duetdb.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.duetdb.common.config.ConfigFiles;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;

class StoreConfigTest {
    @Test
    void defaultsAreTheDocumentedOnes() {
        StoreConfig config = new StoreConfig().validate();
        assertThat(config.dataDir()).isEqualTo(Path.of("data", "store-1"));
        assertThat(config.pd()).containsExactly(HostAndPort.parse("127.0.0.1:2379"));
        assertThat(config.address()).isEqualTo(HostAndPort.parse("127.0.0.1:20160"));
        assertThat(config.raftAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:20170"));
        assertThat(config.statusAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:20180"));
        assertThat(config.advertisedAddress()).isEqualTo(config.address());
        assertThat(config.labels()).isEmpty();
        assertThat(config.electionTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.storeHeartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.regionHeartbeatInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.splitCheckInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.replicaGcInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.regionMaxSize()).isEqualTo(DataSize.ofMebibytes(384));
        assertThat(config.blockCacheSize()).isEqualTo(DataSize.ofMebibytes(256));
        assertThat(config.reserveSpace()).isEqualTo(DataSize.ofMebibytes(1024));
        assertThat(config.raftSnapshotThreshold()).isEqualTo(10_000);
        assertThat(config.maxBatchCommands()).isEqualTo(512);
        assertThat(config.maxBatchBytes()).isEqualTo(DataSize.ofMebibytes(4));
        assertThat(config.coprocessorMemory()).isEqualTo(DataSize.ofMebibytes(1024));
        assertThat(config.maxInflightProposals()).isEqualTo(1);
        assertThat(config.raftServerThreads()).isZero();
        assertThat(config.gcRunInterval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.resolvedTsInterval()).isEqualTo(Duration.ofMillis(50));
        assertThat(config.latchSlots()).isEqualTo(2048);
        assertThat(config.inMemoryPessimisticLocks()).isTrue();
    }

    @Test
    void keysMapFromToml() {
        StoreConfig config = ConfigFiles.overlay("store.toml", """
                data-dir = "/srv/duet/store"
                pd = ["10.0.0.1:2379", "10.0.0.2:2379"]
                address = "0.0.0.0:20160"
                advertise-address = "10.0.0.5:20160"
                raft-address = "10.0.0.5:20170"
                status-address = "10.0.0.5:20180"
                region-max-size = "96MiB"
                reserve-space = "5GiB"
                election-timeout = "2s"
                max-inflight-proposals = 4

                [labels]
                zone = "z1"
                engine = "columnar"
                """, new StoreConfig()).validate();
        assertThat(config.pd()).hasSize(2);
        assertThat(config.advertisedAddress()).isEqualTo(HostAndPort.parse("10.0.0.5:20160"));
        assertThat(config.regionMaxSize()).isEqualTo(DataSize.ofMebibytes(96));
        assertThat(config.reserveSpace().bytes()).isEqualTo(5L << 30);
        assertThat(config.labels()).containsEntry("zone", "z1").containsEntry("engine", "columnar");
        assertThat(config.maxInflightProposals()).isEqualTo(4);
    }

    @Test
    void wildcardListenersAdvertiseTheAdvertisedHost() {
        StoreConfig config = new StoreConfig().setAddress(HostAndPort.parse("0.0.0.0:20160"))
                .setRaftAddress(HostAndPort.parse("0.0.0.0:20170")).setStatusAddress(HostAndPort.parse("0.0.0.0:20180"))
                .setAdvertiseAddress(HostAndPort.parse("store-1:20160")).validate();
        assertThat(config.advertisedRaftAddress()).isEqualTo(HostAndPort.parse("store-1:20170"));
        assertThat(config.advertisedStatusAddress()).isEqualTo(HostAndPort.parse("store-1:20180"));
        StoreConfig local = new StoreConfig().validate();
        assertThat(local.advertisedRaftAddress()).isEqualTo(local.raftAddress());
        assertThatThrownBy(() -> new StoreConfig().setAddress(HostAndPort.parse("0.0.0.0:20160")).validate())
                .hasMessageContaining("set advertise-address");
    }

    @Test
    void badValuesAreOneLineErrors() {
        assertThatThrownBy(() -> ConfigFiles.overlay("s.toml", "region-max-size = \"huge\"\n", new StoreConfig()))
                .hasMessageContaining("invalid value for 'region-max-size'").hasMessageContaining("not a size");
        assertThatThrownBy(() -> new StoreConfig().setRaftAddress(HostAndPort.parse("127.0.0.1:20160")).validate())
                .hasMessageContaining("must differ");
        assertThatThrownBy(() -> new StoreConfig().setRegionMaxSize(new DataSize(10)).validate())
                .hasMessageContaining("at least 1MiB");
    }
}
