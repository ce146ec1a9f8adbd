package io.duetdb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.placement.PlacementConfig;
import picocli.CommandLine;

class PdCommandTest {
    private static PdCommand parse(String... arguments) {
        PdCommand command = new PdCommand();
        new CommandLine(command).parseArgs(arguments);
        return command;
    }

    @Test
    void flagsOverrideTheConfigFile(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("pd.toml");
        Files.writeString(file, """
                name = "pd-2"
                peer-address = "127.0.0.1:3380"
                initial-cluster = ["pd-1=127.0.0.1:2380", "pd-2=127.0.0.1:3380"]
                max-replicas = 1
                """);
        PlacementConfig config = parse("--config", file.toString(), "--client-address", "127.0.0.1:3379",
                "--status-address", "127.0.0.1:3381", "--data-dir", directory.resolve("d").toString()).effectiveConfig();
        assertThat(config.name()).isEqualTo("pd-2");
        assertThat(config.maxReplicas()).isEqualTo(1);
        assertThat(config.clientAddress()).isEqualTo(HostAndPort.parse("127.0.0.1:3379"));
        assertThat(config.dataDir()).isEqualTo(directory.resolve("d"));
    }

    @Test
    void flagsAloneMakeASingleMemberCluster() {
        PlacementConfig config = parse("--name", "solo", "--peer-address", "127.0.0.1:4380",
                "--client-address", "127.0.0.1:4379", "--status-address", "127.0.0.1:4381").effectiveConfig();
        assertThat(config.initialCluster()).containsExactly("solo=127.0.0.1:4380");
        assertThat(config.dataDir()).isEqualTo(Path.of("data", "solo"));
    }

    @Test
    void badFlagsAndFilesAreOneLineErrors(@TempDir Path directory) throws Exception {
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        assertThat(commandLine.execute("pd", "--client-address", "nowhere")).isEqualTo(Main.EXIT_USAGE);
        assertThat(err.toString().strip()).isEqualTo(
                "error: Invalid value for option '--client-address': 'nowhere' is not host:port (see 'duet pd --help')");

        Path file = directory.resolve("bad.toml");
        Files.writeString(file, "nmae = \"pd-1\"\n");
        StringWriter err2 = new StringWriter();
        CommandLine second = Main.commandLine();
        second.setErr(new PrintWriter(err2, true));
        assertThat(second.execute("pd", "--config", file.toString())).isEqualTo(Main.EXIT_ERROR);
        assertThat(err2.toString().strip()).isEqualTo("error: config file " + file + ": unknown key 'nmae' (line 1)");
    }

    @Test
    void printConfigShowsTheEffectiveToml() {
        StringWriter out = new StringWriter();
        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(captured, true));
        try {
            assertThat(Main.commandLine().execute("pd", "--print-config", "--name", "pd-1")).isZero();
        } finally {
            System.setOut(original);
        }
        assertThat(captured.toString()).contains("name = 'pd-1'").contains("tso-save-interval = '3s'");
        assertThat(out.toString()).isEmpty();
    }
}
