package io.duetdb.testing;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.google.protobuf.ByteString;

import io.duetdb.client.txn.Isolation;
import io.duetdb.client.txn.Transaction;
import io.duetdb.client.txn.TxnClient;
import io.duetdb.client.txn.TxnMode;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * The bank workload: accounts move money between each other in transactions while readers check that
 * every snapshot sees the same total and no account below zero. Any violation is recorded and reported
 * by {@link #stop()}.
 */
public final class BankWorkload implements AutoCloseable {
    /**
     * What the run did; {@code lostLocks}: transactions that failed because a pessimistic lock they were granted was
     * gone at prewrite (one of the aborts).
     */
    public record Stats(long transfers, long reads, Map<ErrorCode, Long> aborts, long lostLocks) {
    }

    private final TxnClient client;
    private final String prefix;
    private final int accounts;
    private final long initialBalance;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong transfers = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong lostLocks = new AtomicLong();
    private final Map<ErrorCode, AtomicLong> aborts = new EnumMap<>(ErrorCode.class);
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

    public BankWorkload(TxnClient client, String prefix, int accounts, long initialBalance) {
        this.client = requireNonNull(client, "client is null");
        this.prefix = requireNonNull(prefix, "prefix is null");
        this.accounts = accounts;
        this.initialBalance = initialBalance;
        for (ErrorCode code : ErrorCode.values()) {
            aborts.put(code, new AtomicLong());
        }
    }

    public byte[] account(int index) {
        return String.format("%s-%04d", prefix, index).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    public List<byte[]> accountKeys() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < accounts; i++) {
            keys.add(account(i));
        }
        return keys;
    }

    public long expectedTotal() {
        return accounts * initialBalance;
    }

    public void load() {
        try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            for (int i = 0; i < accounts; i++) {
                txn.put(account(i), encode(initialBalance));
            }
            txn.commit();
        }
    }

    public void startTransfers(int count, TxnMode mode) {
        for (int i = 0; i < count; i++) {
            start("bank-transfer-" + mode.name().toLowerCase() + "-" + i, () -> transfer(mode));
        }
    }

    public void startReaders(int count) {
        for (int i = 0; i < count; i++) {
            start("bank-reader-" + i, this::check);
        }
    }

    private void start(String name, Runnable step) {
        Thread thread = new Thread(() -> {
            while (running.get()) {
                try {
                    step.run();
                } catch (DuetException e) {
                    aborts.get(e.code()).incrementAndGet();
                    if (e.getMessage().contains("holds no pessimistic lock")) {
                        lostLocks.incrementAndGet();
                    }
                } catch (RuntimeException | Error e) {
                    failures.add(e);
                    return;
                }
            }
        }, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void transfer(TxnMode mode) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int from = random.nextInt(accounts);
        int to = random.nextInt(accounts - 1);
        if (to >= from) {
            to++;
        }
        long amount = 1 + random.nextInt(20);
        try (Transaction txn = client.begin(mode, Isolation.REPEATABLE_READ)) {
            long fromBalance = decode(txn.getForUpdate(account(from)).orElseThrow());
            long toBalance = decode(txn.getForUpdate(account(to)).orElseThrow());
            if (fromBalance < amount) {
                txn.rollback();
                return;
            }
            txn.put(account(from), encode(fromBalance - amount));
            txn.put(account(to), encode(toBalance + amount));
            txn.commit();
            transfers.incrementAndGet();
        }
    }

    private void check() {
        try (Transaction txn = client.begin(TxnMode.OPTIMISTIC, Isolation.REPEATABLE_READ)) {
            Map<ByteString, byte[]> balances = txn.batchGet(accountKeys());
            long total = 0;
            for (Map.Entry<ByteString, byte[]> entry : balances.entrySet()) {
                long balance = decode(entry.getValue());
                if (balance < 0) {
                    violations.add("account " + entry.getKey().toStringUtf8() + " is at " + balance + " at " + txn.startTs());
                }
                total += balance;
            }
            if (balances.size() != accounts || total != expectedTotal()) {
                violations.add("snapshot " + txn.startTs() + " sees " + balances.size() + " accounts holding " + total
                        + " instead of " + accounts + " holding " + expectedTotal());
            }
            txn.rollback();
            reads.incrementAndGet();
        }
    }

    public long transfersSoFar() {
        return transfers.get();
    }

    /** Stops the threads; throws if any snapshot saw a wrong total or a negative balance. */
    public Stats stop() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        if (!failures.isEmpty()) {
            throw new AssertionError("a bank thread failed: " + failures.peek(), failures.peek());
        }
        if (!violations.isEmpty()) {
            throw new AssertionError(violations.size() + " invariant violations, first: " + violations.peek());
        }
        Map<ErrorCode, Long> counts = new EnumMap<>(ErrorCode.class);
        aborts.forEach((code, count) -> {
            if (count.get() > 0) {
                counts.put(code, count.get());
            }
        });
        return new Stats(transfers.get(), reads.get(), counts, lostLocks.get());
    }

    @Override
    public void close() {
        running.set(false);
    }

    static byte[] encode(long balance) {
        return ByteBuffer.allocate(8).putLong(balance).array();
    }

    static long decode(byte[] value) {
        return ByteBuffer.wrap(value).getLong();
    }
}
