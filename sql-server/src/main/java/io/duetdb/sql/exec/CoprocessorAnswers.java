package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.duetdb.client.txn.CoprocessorStream;
import io.duetdb.client.txn.CoprocessorSummary;
import io.duetdb.compute.ArrowIpc;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * The stores' answers to one task: as rows (a batch per answer, converted as the consumer pulls them), or as the
 * Arrow batches they arrived in, for an operator that works on columns. What the stores report of their work goes to
 * the consumer of summaries once, when the answers end or are closed.
 */
final class CoprocessorAnswers implements RowStream {
    private final CoprocessorStream answers;
    private final List<FieldType> types;
    private final Consumer<CoprocessorSummary> reported;
    private final SessionFunctions session;
    private boolean reportedOnce;

    /** Answers from {@code answers}; null {@code answers} stands for a task over an empty range (none at all). */
    CoprocessorAnswers(CoprocessorStream answers, List<FieldType> types, Consumer<CoprocessorSummary> reported,
            SessionFunctions session) {
        this.answers = answers;
        this.types = List.copyOf(types);
        this.reported = requireNonNull(reported, "reported is null");
        this.session = requireNonNull(session, "session is null");
    }

    /** The answers' column types. */
    List<FieldType> types() {
        return types;
    }

    @Override
    public List<Object[]> next() {
        List<Object[]> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            return nextBatches(allocator, batch -> ArrowRows.addRows(batch, types, rows)) ? rows : null;
        }
    }

    /**
     * Hands the next answer's batches to {@code each} (valid only during the call, in {@code allocator}); false when
     * there are no more answers.
     */
    boolean nextBatches(BufferAllocator allocator, Consumer<VectorSchemaRoot> each) {
        session.checkNotKilled();
        byte[] answer = answers == null ? null : answers.next();
        if (answer == null) {
            report();
            return false;
        }
        ArrowIpc.read(answer, allocator, each);
        return true;
    }

    private void report() {
        if (!reportedOnce && answers != null) {
            reportedOnce = true;
            reported.accept(answers.summary());
        }
    }

    @Override
    public void close() {
        report();
        if (answers != null) {
            answers.close();
        }
    }
}
