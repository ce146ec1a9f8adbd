package io.duetdb.store.internal;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/** Samples the free space of the data directory's disk; writes stop below the reserve. */
public final class DiskMonitor {
    private final FileStore fileStore;
    private final long reserveBytes;
    private volatile long availableBytes = Long.MAX_VALUE;
    private volatile long capacityBytes;

    public DiskMonitor(Path dataDir, long reserveBytes) throws IOException {
        this.fileStore = Files.getFileStore(dataDir);
        this.reserveBytes = reserveBytes;
        refresh();
    }

    public void refresh() {
        try {
            availableBytes = fileStore.getUsableSpace();
            capacityBytes = fileStore.getTotalSpace();
        } catch (IOException e) {
            // Keep the last reading.
        }
    }

    public boolean isFull() {
        return availableBytes < reserveBytes;
    }

    public String describe() {
        return (availableBytes >> 20) + " MiB free, " + (reserveBytes >> 20) + " MiB reserved";
    }

    public long availableBytes() {
        return availableBytes;
    }

    public long capacityBytes() {
        return capacityBytes;
    }
}
