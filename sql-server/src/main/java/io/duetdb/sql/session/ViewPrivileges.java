package io.duetdb.sql.session;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.catalog.InfoSchema;
import io.duetdb.sql.catalog.Privilege;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.parser.StatementParser;
import io.duetdb.sql.parser.ddl.SqlCreateView;
import io.duetdb.sql.prepare.QueryPlanner;

/**
 * What CREATE / ALTER VIEW asks of the account, as MySQL does: CREATE on the view (and DROP when it may replace
 * one), SELECT on every table and view the query reads, and SUPER to name a definer other than itself; the definer
 * of a view that names none (or CURRENT_USER) is the account. A view may not read a temporary table (1352).
 */
final class ViewPrivileges {
    private ViewPrivileges() {
    }

    static SqlCreateView checked(Session session, SqlCreateView create) {
        String[] name = session.qualifiedName(create.name());
        session.require(Privilege.CREATE, name[0], name[1]);
        if (create.replace()) {
            session.require(Privilege.DROP, name[0], name[1]);
        }
        QueryPlanner.PlannedQuery planned = session.planner().plan(StatementParser.parse(create.definition()));
        session.requireSelect(planned);
        for (QueryPlanner.TableRead read : planned.reads()) {
            if (InfoSchema.holdsTemporaryTables(read.database())) {
                throw new DuetException(ErrorCode.VIEW_SELECTS_TEMPORARY_TABLE, "View's SELECT refers to a temporary"
                        + " table '" + read.table() + "'");
            }
        }
        UserInfo account = session.account();
        String self = account.user() + "@" + account.host();
        String definer = create.options().definer();
        if (definer == null || definer.equals("CURRENT_USER")) {
            return create.withDefiner(self);
        }
        if (!definer.equals(self) && !account.global().contains(Privilege.SUPER)) {
            throw new DuetException(ErrorCode.SPECIFIC_ACCESS_DENIED, "Access denied; you need (at least one of) the"
                    + " SUPER or SET_USER_ID privilege(s) for this operation");
        }
        return create;
    }
}
