package io.duetdb.spark.internal;

import org.apache.spark.sql.connector.write.WriterCommitMessage;

/** What a task wrote: its rows, and the largest AUTO_INCREMENT value it was given explicitly (0: none). */
record WrittenRows(int partition, long rows, long largestExplicitAutoIncrement) implements WriterCommitMessage {
}
