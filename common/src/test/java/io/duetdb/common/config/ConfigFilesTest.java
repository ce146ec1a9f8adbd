package io.duetdb.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

class ConfigFilesTest {
    static final class SampleConfig {
        private String name = "node-1";
        private HostAndPort listenAddress = HostAndPort.parse("127.0.0.1:2379");
        private Duration heartbeatInterval = Duration.ofSeconds(10);
        private int workerThreads = 4;
        private List<String> peers = List.of();
        private Path dataDir = Path.of("data", "node-1");
    }

    @Test
    void overlaysKebabCaseKeysOnDefaults() {
        SampleConfig config = ConfigFiles.overlay("sample.toml", """
                listen-address = "0.0.0.0:4000"
                heartbeat-interval = "1m30s"
                peers = ["a", "b"]
                """, new SampleConfig());
        assertThat(config.name).isEqualTo("node-1");
        assertThat(config.listenAddress).isEqualTo(new HostAndPort("0.0.0.0", 4000));
        assertThat(config.heartbeatInterval).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.workerThreads).isEqualTo(4);
        assertThat(config.peers).containsExactly("a", "b");
    }

    @Test
    void unknownKeysAreOneLineErrorsWithTheLine() {
        assertThatThrownBy(() -> ConfigFiles.overlay("sample.toml", "name = \"x\"\nlisten-adress = \"a:1\"\n", new SampleConfig()))
                .isInstanceOf(DuetException.class)
                .satisfies(e -> assertThat(((DuetException) e).code()).isEqualTo(ErrorCode.INVALID_CONFIG))
                .hasMessage("config file sample.toml: unknown key 'listen-adress' (line 2)");
    }

    @Test
    void malformedValuesNameTheKey() {
        assertThatThrownBy(() -> ConfigFiles.overlay("s.toml", "heartbeat-interval = \"soon\"\n", new SampleConfig()))
                .hasMessageStartingWith("config file s.toml: invalid value for 'heartbeat-interval'")
                .hasMessageContaining("not a duration")
                .message().doesNotContain("\n");
        assertThatThrownBy(() -> ConfigFiles.overlay("s.toml", "listen-address = \"nohost\"\n", new SampleConfig()))
                .hasMessageContaining("invalid value for 'listen-address'").hasMessageContaining("not host:port");
        assertThatThrownBy(() -> ConfigFiles.overlay("s.toml", "worker-threads = \"many\"\n", new SampleConfig()))
                .hasMessageContaining("invalid value for 'worker-threads'");
        assertThatThrownBy(() -> ConfigFiles.overlay("s.toml", "name = \n", new SampleConfig()))
                .hasMessageStartingWith("config file s.toml is not valid TOML");
    }

    @Test
    void missingFileIsAClearError(@TempDir Path directory) {
        assertThatThrownBy(() -> ConfigFiles.load(directory.resolve("absent.toml"), new SampleConfig()))
                .hasMessageEndingWith("absent.toml does not exist");
    }

    @Test
    void rendersWhatItReads(@TempDir Path directory) throws Exception {
        String text = ConfigFiles.toToml(new SampleConfig());
        assertThat(text).contains("heartbeat-interval = '10s'").contains("listen-address = '127.0.0.1:2379'")
                .contains("data-dir = 'data/node-1'");
        Path file = directory.resolve("round.toml");
        Files.writeString(file, text);
        SampleConfig read = ConfigFiles.load(file, new SampleConfig());
        assertThat(read.heartbeatInterval).isEqualTo(Duration.ofSeconds(10));
        assertThat(read.dataDir).isEqualTo(Path.of("data", "node-1"));
    }

    @Test
    void durationsAndAddressesParse() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("2h30m")).isEqualTo(Duration.ofMinutes(150));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(Durations.format(Duration.ofMinutes(30))).isEqualTo("30m");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThatThrownBy(() -> Durations.parse("5 parsecs")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Durations.parse("")).isInstanceOf(IllegalArgumentException.class);
        assertThat(DataSize.parse("96MiB").bytes()).isEqualTo(96L << 20);
        assertThat(DataSize.parse("96MB").bytes()).isEqualTo(96L << 20);
        assertThat(DataSize.parse("1.5GiB").bytes()).isEqualTo(3L << 29);
        assertThat(DataSize.parse("512").bytes()).isEqualTo(512);
        assertThat(DataSize.ofMebibytes(384).toString()).isEqualTo("384MiB");
        assertThat(new DataSize(1000).toString()).isEqualTo("1000B");
        assertThatThrownBy(() -> DataSize.parse("lots")).isInstanceOf(IllegalArgumentException.class);
        assertThat(HostAndPort.parse("[::1]:80")).isEqualTo(new HostAndPort("::1", 80));
        assertThat(HostAndPort.parse("[::1]:80").toString()).isEqualTo("[::1]:80");
        assertThatThrownBy(() -> HostAndPort.parse("host:99999")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostAndPort.parse(":80")).isInstanceOf(IllegalArgumentException.class);
    }
}
