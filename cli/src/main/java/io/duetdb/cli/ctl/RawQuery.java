package io.duetdb.cli.ctl;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.concurrent.Callable;

import io.duetdb.client.kv.RawKvClient;
import io.duetdb.client.placement.PlacementClient;
import io.duetdb.proto.kv.ReplicaRead;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** A {@code ctl raw} command: runs against the raw KV client and prints JSON. */
abstract class RawQuery implements Callable<Integer> {
    @ParentCommand
    RawCommand raw;

    @Spec
    CommandSpec spec;

    @Option(names = "--hex", description = "keys and values on the command line are hexadecimal")
    boolean hex;

    @Override
    public final Integer call() {
        Object answer;
        try (PlacementClient placement = raw.ctl.connect();
                RawKvClient client = new RawKvClient(placement, raw.ctl.timeout(), ReplicaRead.LEADER)) {
            answer = run(client);
        }
        Json.print(spec.commandLine().getOut(), answer);
        return 0;
    }

    abstract Object run(RawKvClient client);

    byte[] bytes(String text) {
        return bytes(spec, hex, text);
    }

    /** A key or value from the command line: UTF-8 text, or hexadecimal with {@code --hex}. */
    static byte[] bytes(CommandSpec spec, boolean hex, String text) {
        if (!hex) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "'" + text + "' is not hexadecimal");
        }
    }

    /** UTF-8 text when the bytes are valid UTF-8 without control characters, else "0x" and hex. */
    static String display(byte[] bytes) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            if (text.chars().noneMatch(Character::isISOControl)) {
                return text;
            }
        } catch (CharacterCodingException e) {
            // not text: fall through to hex
        }
        return "0x" + HexFormat.of().formatHex(bytes);
    }
}
