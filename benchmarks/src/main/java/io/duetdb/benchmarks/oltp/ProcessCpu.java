package io.duetdb.benchmarks.oltp;

import java.lang.management.ManagementFactory;

import com.sun.management.OperatingSystemMXBean;

/**
 * CPU time of this process: for the in-process cluster that is clients, SQL server, placement and stores together,
 * a figure that other programs sharing the machine's cores disturb far less than throughput; for other endpoints
 * it is the clients' only.
 */
final class ProcessCpu {
    private ProcessCpu() {
    }

    static long nanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
