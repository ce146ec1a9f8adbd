package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.duetdb.proto.coprocessor.DagRequest;
import io.duetdb.proto.coprocessor.Executor;
import io.duetdb.proto.coprocessor.FieldType;

/**
 * Work for the stores' coprocessors: the plan they run over a key range, the types of the rows they answer, how the
 * SQL layer finishes those rows (residual conditions, projections, the merge of partial aggregates), and what
 * EXPLAIN says of it. Built by {@link CoprocessorPlanner} without reading anything; run by {@link CoprocessorReader}.
 */
record CoprocessorTask(DagRequest dag, ScanShape shape, List<FieldType> outputTypes,
        Function<CoprocessorAnswers, RowStream> finish, String table, String accessNote,
        List<String> pushedConditions, List<String> residualConditions, List<String> pushedProjections) {

    /**
     * The scan a task starts with: its executor, its columns' types, its key range, which replicas serve it, and why
     * (when costs chose the engine; else empty).
     */
    record ScanShape(Executor scan, List<FieldType> types, byte[] start, byte[] end, String indexName, boolean fromLearners,
            String engineNote) {
        ScanShape {
            requireNonNull(engineNote, "engineNote is null");
            requireNonNull(scan, "scan is null");
            types = List.copyOf(types);
            requireNonNull(start, "start is null");
            requireNonNull(end, "end is null");
        }

        /** Whether the range holds no key at all, so the stores need not be asked. */
        boolean empty() {
            return java.util.Arrays.equals(start, end);
        }
    }

    CoprocessorTask {
        requireNonNull(dag, "dag is null");
        requireNonNull(shape, "shape is null");
        outputTypes = List.copyOf(outputTypes);
        requireNonNull(finish, "finish is null");
        requireNonNull(table, "table is null");
        requireNonNull(accessNote, "accessNote is null");
        pushedConditions = List.copyOf(pushedConditions);
        residualConditions = List.copyOf(residualConditions);
        pushedProjections = List.copyOf(pushedProjections);
    }

    /** The same task with {@code next} applied to each batch of its finished rows. */
    CoprocessorTask then(UnaryOperator<List<Object[]>> next) {
        return new CoprocessorTask(dag, shape, outputTypes, rows -> finish.apply(rows).map(next), table, accessNote,
                pushedConditions, residualConditions, pushedProjections);
    }

    /** The same task, with why the costs chose its access path (for EXPLAIN). */
    CoprocessorTask withAccessNote(String note) {
        return new CoprocessorTask(dag, shape, outputTypes, finish, table, note, pushedConditions, residualConditions,
                pushedProjections);
    }

    /** The same task, with the conditions the stores evaluate and those left to the SQL layer (for EXPLAIN). */
    CoprocessorTask withConditions(List<String> pushed, List<String> residual) {
        return new CoprocessorTask(dag, shape, outputTypes, finish, table, accessNote, pushed, residual,
                pushedProjections);
    }

    /** The same task, with the expressions its projection in the stores computes (for EXPLAIN). */
    CoprocessorTask withProjections(List<String> projections) {
        return new CoprocessorTask(dag, shape, outputTypes, finish, table, accessNote, pushedConditions,
                residualConditions, projections);
    }

    /** Whether the stores compute the rows' final columns (the SQL layer adds no projection of its own). */
    boolean projectsInTheStores() {
        return !pushedProjections.isEmpty();
    }

    /** Whether the SQL layer has nothing to do to the stores' answers but convert them. */
    boolean finishedInTheStores() {
        return residualConditions.isEmpty();
    }
}
