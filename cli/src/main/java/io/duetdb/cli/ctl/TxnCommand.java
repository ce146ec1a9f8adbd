package io.duetdb.cli.ctl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.duetdb.client.placement.PlacementClient;
import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnClientConfig;
import io.duetdb.client.txn.TxnMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ctl txn get|put|delete|scan}: one transaction per command through the transaction client, for
 * trying transactions from the shell. Prints the keys with the transaction's start and commit timestamps.
 */
@Command(name = "txn", description = "Read and write keys in a transaction (snapshot reads, two-phase commit).",
        subcommands = {TxnCommand.Get.class, TxnCommand.Put.class, TxnCommand.Delete.class, TxnCommand.Scan.class})
final class TxnCommand implements Runnable {
    @ParentCommand
    CtlCommand ctl;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (expected one of: "
                + String.join(", ", spec.commandLine().getSubcommands().keySet()) + ")");
    }

    /** Runs one transaction and prints what it did. */
    abstract static class Step implements Callable<Integer> {
        @ParentCommand
        TxnCommand txn;

        @Spec
        CommandSpec spec;

        @Option(names = "--hex", description = "keys and values on the command line are hexadecimal")
        boolean hex;

        @Option(names = "--optimistic", description = "optimistic mode (default: pessimistic, as MySQL)")
        boolean optimistic;

        @Override
        public final Integer call() {
            Map<String, Object> json = new LinkedHashMap<>();
            try (PlacementClient placement = txn.ctl.connect();
                    TxnClient client = new TxnClient(placement, TxnClientConfig.DEFAULT);
                    Transaction transaction = client.begin(optimistic ? TxnMode.OPTIMISTIC : TxnMode.PESSIMISTIC,
                            Isolation.REPEATABLE_READ)) {
                json.put("start_ts", transaction.startTs());
                run(transaction, json);
                transaction.commit();
                if (transaction.commitTs() != 0) {
                    json.put("commit_ts", transaction.commitTs());
                }
            }
            Json.print(spec.commandLine().getOut(), json);
            return 0;
        }

        abstract void run(Transaction transaction, Map<String, Object> json);

        byte[] bytes(String text) {
            return RawQuery.bytes(spec, hex, text);
        }
    }

    @Command(name = "get", description = "Read keys at one snapshot.")
    static final class Get extends Step {
        @Parameters(arity = "1..*", paramLabel = "KEY")
        List<String> keys;

        @Override
        void run(Transaction transaction, Map<String, Object> json) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (String key : keys) {
                values.put(key, transaction.get(bytes(key)).map(RawQuery::display).orElse(null));
            }
            json.put("values", values);
        }
    }

    @Command(name = "put", description = "Write KEY VALUE pairs in one transaction.")
    static final class Put extends Step {
        @Parameters(arity = "2..*", paramLabel = "KEY VALUE")
        List<String> pairs;

        @Override
        void run(Transaction transaction, Map<String, Object> json) {
            if (pairs.size() % 2 != 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), "expected KEY VALUE pairs, got an odd count");
            }
            List<String> written = new ArrayList<>();
            for (int i = 0; i < pairs.size(); i += 2) {
                transaction.put(bytes(pairs.get(i)), bytes(pairs.get(i + 1)));
                written.add(pairs.get(i));
            }
            json.put("put", written);
        }
    }

    @Command(name = "delete", description = "Delete keys in one transaction.")
    static final class Delete extends Step {
        @Parameters(arity = "1..*", paramLabel = "KEY")
        List<String> keys;

        @Override
        void run(Transaction transaction, Map<String, Object> json) {
            keys.forEach(key -> transaction.delete(bytes(key)));
            json.put("deleted", keys);
        }
    }

    @Command(name = "scan", description = "Print the pairs in [start, end) at one snapshot.")
    static final class Scan extends Step {
        @Option(names = "--start", paramLabel = "KEY", defaultValue = "", description = "first key (default: the beginning)")
        String start;

        @Option(names = "--end", paramLabel = "KEY", defaultValue = "", description = "key after the last (default: the end)")
        String end;

        @Option(names = "--limit", defaultValue = "100", description = "at most this many pairs, up to 10000 (default: ${DEFAULT-VALUE})")
        int limit;

        @Override
        void run(Transaction transaction, Map<String, Object> json) {
            if (limit < 1 || limit > 10_000) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be between 1 and 10000");
            }
            byte[] first = bytes(start);
            Map<String, Object> pairs = new LinkedHashMap<>();
            transaction.scan(first, bytes(end), limit).forEach(pair ->
                    pairs.put(RawQuery.display(pair.getKey().toByteArray()), RawQuery.display(pair.getValue())));
            json.put("pairs", pairs);
        }
    }
}
