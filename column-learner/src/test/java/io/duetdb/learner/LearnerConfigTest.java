package io.duetdb.learner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.duetdb.common.config.ConfigFiles;
import io.duetdb.common.config.DataSize;
import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;

class LearnerConfigTest {
    @Test
    void defaultsAreTheDocumentedOnes() {
        LearnerConfig config = new LearnerConfig().validate();
        assertThat(config.dataDir()).isEqualTo(Path.of("data", "learner-1"));
        assertThat(config.pd()).containsExactly(HostAndPort.parse("127.0.0.1:2379"));
        assertThat(config.address()).isEqualTo(HostAndPort.parse("127.0.0.1:3930"));
        assertThat(config.raftAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:3931"));
        assertThat(config.statusAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:20292"));
        assertThat(config.storeHeartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.replicaGcInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.readWaitTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.gcRunInterval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.raftSnapshotThreshold()).isEqualTo(10_000);
        assertThat(config.deltaMergeRows()).isEqualTo(8192);
        assertThat(config.deltaMergeRatio()).isEqualTo(0.125);
        assertThat(config.mergeCheckInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.schemaSyncInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.coprocessorMemory()).isEqualTo(DataSize.ofMebibytes(1024));
        assertThat(config.storeLabels()).isEqualTo(Map.of("engine", "columnar"));
    }

    @Test
    void keysMapFromTomlAndLabelsKeepTheColumnarEngine() {
        LearnerConfig config = ConfigFiles.overlay("learner.toml", """
                data-dir = "/srv/duet/learner"
                pd = ["10.0.0.1:2379"]
                address = "10.0.0.7:3930"
                read-wait-timeout = "3s"
                delta-merge-rows = 100

                [labels]
                zone = "z2"
                """, new LearnerConfig()).validate();
        assertThat(config.dataDir()).isEqualTo(Path.of("/srv/duet/learner"));
        assertThat(config.readWaitTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.deltaMergeRows()).isEqualTo(100);
        assertThat(config.storeLabels()).containsEntry("zone", "z2").containsEntry("engine", "columnar");
    }

    @Test
    void badValuesAreRefused() {
        assertThatThrownBy(() -> new LearnerConfig().setLabels(Map.of("engine", "row")).validate())
                .isInstanceOf(DuetException.class).hasMessageContaining("columnar");
        assertThatThrownBy(() -> new LearnerConfig().setRaftAddress(HostAndPort.parse("127.0.0.1:3930")).validate())
                .isInstanceOf(DuetException.class).hasMessageContaining("must differ");
        assertThatThrownBy(() -> new LearnerConfig().setReadWaitTimeout(Duration.ZERO).validate())
                .isInstanceOf(DuetException.class);
        assertThatThrownBy(() -> new LearnerConfig().setDeltaMergeRatio(-1).validate())
                .isInstanceOf(DuetException.class).hasMessageContaining("delta-merge-ratio");
        assertThatThrownBy(() -> new LearnerConfig().setDeltaMergeRows(0).validate())
                .isInstanceOf(DuetException.class).hasMessageContaining("delta-merge-rows");
    }
}
