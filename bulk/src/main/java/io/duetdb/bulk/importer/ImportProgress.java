package io.duetdb.bulk.importer;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The progress of one import, read by whoever reports it (log lines, a progress bar): the phase, source bytes read
 * of the total, rows encoded, pairs written of those sorted.
 */
public final class ImportProgress {
    /** The phases in order. */
    public enum Phase { ENCODING, WRITING, DONE }

    private final String target;
    private final long totalBytes;
    private final long startedNanos = System.nanoTime();
    private volatile Phase phase = Phase.ENCODING;
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong rows = new AtomicLong();
    final AtomicLong pairsSorted = new AtomicLong();
    final AtomicLong pairsWritten = new AtomicLong();

    public ImportProgress(String target, long totalBytes) {
        this.target = requireNonNull(target, "target is null");
        this.totalBytes = totalBytes;
    }

    void phase(Phase next) {
        phase = next;
    }

    public Phase phase() {
        return phase;
    }

    public long totalBytes() {
        return totalBytes;
    }

    public long bytesRead() {
        return bytesRead.get();
    }

    public long rows() {
        return rows.get();
    }

    public long pairsSorted() {
        return pairsSorted.get();
    }

    public long pairsWritten() {
        return pairsWritten.get();
    }

    /** How far the import is, 0 to 1: reading counts for the first half, writing for the second. */
    public double fraction() {
        double read = totalBytes == 0 ? 1 : Math.min(1, bytesRead.get() / (double) totalBytes);
        double written = pairsSorted.get() == 0 ? 0 : Math.min(1, pairsWritten.get() / (double) pairsSorted.get());
        return switch (phase) {
            case ENCODING -> read / 2;
            case WRITING -> 0.5 + written / 2;
            case DONE -> 1;
        };
    }

    /** One line for the log: what, how far, how fast. */
    public String describe() {
        double seconds = Math.max(1e-3, (System.nanoTime() - startedNanos) / 1e9);
        double fraction = fraction();
        String eta = fraction <= 0 || fraction >= 1 ? "-" : String.format("%.0f s", seconds / fraction - seconds);
        return String.format("import into %s: %s, %.0f%%, %,d rows (%,.0f rows/s), %,d of %,d MiB read, %,d of %,d pairs"
                + " written, ETA %s", target, phase.name().toLowerCase(Locale.ROOT), fraction * 100,
                rows.get(), rows.get() / seconds, bytesRead.get() >> 20, totalBytes >> 20, pairsWritten.get(),
                pairsSorted.get(), eta);
    }
}
