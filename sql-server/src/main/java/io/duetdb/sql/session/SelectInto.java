package io.duetdb.sql.session;

import java.util.List;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/** SELECT ... INTO @v [, @w]: the query's one row stored in user variables, as MySQL stores it. */
final class SelectInto {
    private SelectInto() {
    }

    /** Stores the answer's row; none leaves the variables as they were, with MySQL's warning. */
    static UpdateResult store(Session session, List<String> variables, StatementResult answer) {
        QueryResult query = (QueryResult) answer;
        if (query.columns().size() != variables.size()) {
            throw new DuetException(ErrorCode.SELECTS_DIFFERENT_COLUMN_COUNTS,
                    "The used SELECT statements have a different number of columns");
        }
        if (query.rows().size() > 1) {
            throw new DuetException(ErrorCode.RESULT_HAS_MORE_THAN_ONE_ROW, "Result consisted of more than one row");
        }
        if (query.rows().isEmpty()) {
            session.addWarning(ErrorCode.NO_DATA, "No data - zero rows fetched, selected, or processed");
            return UpdateResult.NONE;
        }
        Object[] row = query.rows().get(0);
        for (int i = 0; i < variables.size(); i++) {
            session.setUserVariable(variables.get(i), row[i]);
        }
        return UpdateResult.affected(1);
    }
}
