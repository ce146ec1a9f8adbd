package io.duetdb.sql.prepare;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import io.duetdb.sql.exec.StorageHints;

/**
 * Reads TiDB's READ_FROM_STORAGE hints of a statement's query blocks: {@code READ_FROM_STORAGE(TIFLASH[t1, t2],
 * TIKV[t3])}, which the lexer hands over as the options {@code TIFLASH[, t1, t2, TIKV[, t3}. A table is named by
 * its name or by its alias in the query block whose hint names it. What the hint cannot use (an unknown engine, a
 * table the block does not read) is a warning, as in TiDB.
 */
public final class ReadFromStorageHints {
    private static final String HINT = "READ_FROM_STORAGE";

    private ReadFromStorageHints() {
    }

    public static StorageHints of(SqlNode statement, Consumer<String> warnings) {
        Map<String, StorageHints.Engine> engines = new HashMap<>();
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.hasHints()) {
                    read(select, engines, warnings);
                }
                return super.visit(call);
            }
        });
        return engines.isEmpty() ? StorageHints.NONE : new StorageHints(engines);
    }

    private static void read(SqlSelect select, Map<String, StorageHints.Engine> engines, Consumer<String> warnings) {
        Map<String, String> tables = new HashMap<>();
        if (select.getFrom() != null) {
            tablesOf(select.getFrom(), tables);
        }
        for (SqlNode node : select.getHints()) {
            if (!(node instanceof SqlHint hint) || !hint.getName().equalsIgnoreCase(HINT)) {
                continue;
            }
            Optional<StorageHints.Engine> engine = Optional.empty();
            boolean known = false;
            for (String option : hint.getOptionList()) {
                if (option.endsWith("[")) {
                    engine = StorageHints.Engine.named(option);
                    known = true;
                    if (engine.isEmpty()) {
                        warnings.accept("Storage type " + option.substring(0, option.length() - 1)
                                + " in hint read_from_storage is unknown; use TIKV or TIFLASH");
                    }
                    continue;
                }
                if (!known) {
                    warnings.accept("Hint read_from_storage(" + String.join(", ", hint.getOptionList())
                            + ") is not written as read_from_storage(TIFLASH[t1, t2], TIKV[t3]); it is ignored");
                    break;
                }
                String table = tables.get(option.toLowerCase(Locale.ROOT));
                if (table == null) {
                    warnings.accept("There are no matching table names for (" + option
                            + ") in optimizer hint /*+ READ_FROM_STORAGE(...) */");
                } else if (engine.isPresent()) {
                    engines.put(table, engine.get());
                }
            }
        }
    }

    /** The tables a FROM clause reads, by their aliases and names (lower case), to their names. */
    private static void tablesOf(SqlNode from, Map<String, String> tables) {
        if (from instanceof SqlJoin join) {
            tablesOf(join.getLeft(), tables);
            tablesOf(join.getRight(), tables);
        } else if (from instanceof SqlIdentifier identifier) {
            String name = identifier.names.get(identifier.names.size() - 1).toLowerCase(Locale.ROOT);
            tables.put(name, name);
        } else if (from instanceof SqlBasicCall call && call.getKind() == SqlKind.AS
                && call.operand(0) instanceof SqlIdentifier identifier) {
            String name = identifier.names.get(identifier.names.size() - 1).toLowerCase(Locale.ROOT);
            List<SqlNode> operands = call.getOperandList();
            tables.put(name, name);
            tables.put(((SqlIdentifier) operands.get(1)).getSimple().toLowerCase(Locale.ROOT), name);
        }
    }
}
