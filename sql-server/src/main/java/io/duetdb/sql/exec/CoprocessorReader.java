package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

import io.duetdb.client.txn.CoprocessorStream;
import io.duetdb.client.txn.CoprocessorSummary;
import io.duetdb.client.txn.Transaction;
import io.duetdb.compute.operator.BatchOperator;
import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.kv.ReplicaRead;

/**
 * Runs coprocessor tasks: sends each to the regions of its range (leaders or learners, as the task's scan says) in
 * the transaction's snapshot, and hands the answers on as rows finished by the task, or as Arrow batches.
 */
final class CoprocessorReader {
    private final Transaction transaction;
    private final SessionFunctions session;
    /** The statement's memory: the answers in flight count against its quota. */
    private final MemoryTracker memory;

    CoprocessorReader(Transaction transaction, SessionFunctions session, MemoryTracker memory) {
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.session = requireNonNull(session, "session is null");
        this.memory = requireNonNull(memory, "memory is null");
    }

    /**
     * The rows of a task, finished here, as the stores answer; null for a null task. What the stores report of their
     * work goes to {@code reported} once the stream ends or is closed.
     */
    RowStream open(CoprocessorTask task, Consumer<CoprocessorSummary> reported) {
        if (task == null) {
            return null;
        }
        return task.finish().apply(answers(task, reported));
    }

    /** All rows of a task, finished here; null for a null task. */
    List<Object[]> execute(CoprocessorTask task, Consumer<CoprocessorSummary> reported) {
        RowStream rows = open(task, reported);
        return rows == null ? null : RowStream.drain(rows);
    }

    /**
     * The answers of a task whose finish does nothing, as the Arrow batches they arrive in (owned by
     * {@code allocator}); the stores are asked once the first batch is.
     */
    BatchOperator openBatches(CoprocessorTask task, Consumer<CoprocessorSummary> reported, BufferAllocator allocator) {
        requireNonNull(task, "task is null");
        return batches(task.outputTypes(), () -> answers(task, reported), allocator);
    }

    /** The rows of an MPP read, finished here. */
    RowStream openMpp(MppRead read, Consumer<CoprocessorSummary> reported) {
        return read.finish().apply(mppAnswers(read, reported));
    }

    /** The root fragment's answers of an MPP read that the learners finish, as Arrow batches owned by {@code allocator}. */
    BatchOperator openMppBatches(MppRead read, Consumer<CoprocessorSummary> reported, BufferAllocator allocator) {
        if (!read.finishedOnLearners()) {
            throw new IllegalArgumentException("the SQL layer finishes this MPP read's rows");
        }
        return batches(read.outputTypes(), () -> mppAnswers(read, reported), allocator);
    }

    private CoprocessorAnswers mppAnswers(MppRead read, Consumer<CoprocessorSummary> reported) {
        return new CoprocessorAnswers(transaction.mppStream(read.query(), memory.quota(), session::checkNotKilled), read.outputTypes(), reported,
                session);
    }

    private static BatchOperator batches(List<FieldType> types, Supplier<CoprocessorAnswers> source,
            BufferAllocator allocator) {
        return new BatchOperator() {
            private final ArrayDeque<VectorSchemaRoot> arrived = new ArrayDeque<>();
            private CoprocessorAnswers answers;
            private VectorSchemaRoot current;
            private boolean ended;

            @Override
            public List<FieldType> outputTypes() {
                return types;
            }

            @Override
            public VectorSchemaRoot next() {
                closeCurrent();
                while (arrived.isEmpty() && !ended) {
                    if (answers == null) {
                        answers = source.get();
                    }
                    ended = !answers.nextBatches(allocator, batch -> {
                        if (batch.getRowCount() > 0) {
                            arrived.add(owned(batch, allocator));
                        }
                    });
                }
                current = arrived.poll();
                return current;
            }

            private void closeCurrent() {
                if (current != null) {
                    current.close();
                    current = null;
                }
            }

            @Override
            public void close() {
                closeCurrent();
                arrived.forEach(VectorSchemaRoot::close);
                arrived.clear();
                if (answers != null) {
                    answers.close();
                }
            }
        };
    }

    /** The stores' answers to the task's plan, one batch per answer, as the consumer pulls them. */
    private CoprocessorAnswers answers(CoprocessorTask task, Consumer<CoprocessorSummary> reported) {
        CoprocessorTask.ScanShape shape = task.shape();
        CoprocessorStream answers = shape.empty() ? null
                : transaction.coprocessorStream(task.dag().toByteArray(), shape.start(), shape.end(), memory.quota(),
                        ScanConcurrency.of(session), shape.fromLearners() ? ReplicaRead.LEARNER : ReplicaRead.LEADER);
        return new CoprocessorAnswers(answers, task.outputTypes(), reported, session);
    }

    /** A batch whose buffers now belong to a new root in {@code allocator}; the old one is left empty. */
    private static VectorSchemaRoot owned(VectorSchemaRoot batch, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector vector : batch.getFieldVectors()) {
            TransferPair transfer = vector.getTransferPair(allocator);
            transfer.transfer();
            vectors.add((FieldVector) transfer.getTo());
        }
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(batch.getRowCount());
        return root;
    }
}
