package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

import io.duetdb.proto.coprocessor.FieldType;
import io.duetdb.proto.mpp.MppFragment;
import io.duetdb.proto.mpp.MppQuery;

/**
 * An MPP read planned by {@link MppPlanner}: the fragments the learners run, the types of the rows the root
 * fragment sends, and how the SQL layer finishes them (nothing, or the merge of an aggregation's groups). Table
 * names by id are for EXPLAIN.
 */
record MppRead(MppQuery query, List<FieldType> outputTypes, Finish finish, boolean finishedOnLearners,
        Map<Long, String> tableNames) {

    /** What the SQL layer does with the root fragment's answers. */
    interface Finish {
        RowStream apply(CoprocessorAnswers answers);
    }

    MppRead {
        requireNonNull(query, "query is null");
        outputTypes = List.copyOf(outputTypes);
        requireNonNull(finish, "finish is null");
        tableNames = Map.copyOf(tableNames);
    }

    /** The fragment that sends to the SQL server. */
    MppFragment rootFragment() {
        return query.getFragmentsList().stream().filter(fragment -> fragment.getSender().getToServer()).findFirst()
                .orElseThrow();
    }

    /** A fragment by id. */
    MppFragment fragment(int id) {
        return query.getFragmentsList().stream().filter(fragment -> fragment.getId() == id).findFirst().orElseThrow();
    }
}
