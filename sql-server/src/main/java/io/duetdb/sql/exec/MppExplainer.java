package io.duetdb.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.duetdb.proto.coprocessor.AggregateCall;
import io.duetdb.proto.coprocessor.Expression;
import io.duetdb.proto.mpp.ExchangeSender;
import io.duetdb.proto.mpp.MppExecutor;
import io.duetdb.proto.mpp.MppFragment;

/**
 * Draws an MPP read's fragments as TiDB does: each fragment under its ExchangeSender, which says how it partitions its
 * rows, and each ExchangeReceiver over the sender of the fragment it reads. Columns are named by position in their
 * operator's input (#0, #1, ...).
 */
final class MppExplainer {
    static final String TASK = "mpp[tiflash]";

    /** Where the lines go. */
    interface Lines {
        void add(String prefix, String name, String task, String access, String info);
    }

    private final MppRead read;
    private final Lines lines;

    MppExplainer(MppRead read, Lines lines) {
        this.read = requireNonNull(read, "read is null");
        this.lines = requireNonNull(lines, "lines is null");
    }

    /** The root fragment's sender and everything under it. */
    void draw(String prefix, String childIndent) {
        fragment(read.rootFragment(), prefix, childIndent);
    }

    private void fragment(MppFragment fragment, String prefix, String childIndent) {
        lines.add(prefix, "ExchangeSender", TASK, "", sender(fragment.getSender()));
        executor(fragment.getRoot(), childIndent + "└─", childIndent + "  ", "");
    }

    private static String sender(ExchangeSender sender) {
        return switch (sender.getType()) {
            case PASS_THROUGH -> "ExchangeType: PassThrough";
            case BROADCAST -> "ExchangeType: Broadcast";
            case HASH -> "ExchangeType: HashPartition, Hash Cols: [" + columns(sender.getPartitionKeysList()) + "]";
            default -> sender.getType().name();
        };
    }

    private void executor(MppExecutor executor, String prefix, String childIndent, String role) {
        String name;
        String access = "";
        String info;
        switch (executor.getKindCase()) {
            case TABLE_SCAN -> {
                name = "TableFullScan";
                access = "table:" + read.tableNames().getOrDefault(executor.getTableScan().getScan().getTableId(),
                        String.valueOf(executor.getTableScan().getScan().getTableId()));
                info = "keep order:false";
            }
            case SELECTION -> {
                name = "Selection";
                info = executor.getSelection().getConditionsCount() + " condition(s)";
            }
            case PROJECTION -> {
                name = "Projection";
                info = columns(executor.getProjection().getExpressionsList());
            }
            case AGGREGATION -> {
                boolean isFinal = executor.getChildrenCount() == 1 && executor.getChildren(0).hasExchangeReceiver();
                name = "HashAgg";
                info = (isFinal ? "final" : "partial") + ", group by:[" + columns(executor.getAggregation().getGroupByList())
                        + "], funcs:" + executor.getAggregation().getCallsList().stream().map(MppExplainer::call)
                                .collect(Collectors.joining(", "));
            }
            case HASH_JOIN -> {
                name = "HashJoin";
                info = executor.getHashJoin().getKind().name().toLowerCase(Locale.ROOT) + " join, equal:["
                        + executor.getHashJoin().getLeftKeysList().stream().map(MppExplainer::column)
                                .collect(Collectors.joining(", ")) + "] = ["
                        + executor.getHashJoin().getRightKeysList().stream().map(MppExplainer::column)
                                .collect(Collectors.joining(", ")) + "]"
                        + (executor.getHashJoin().hasOtherCondition() ? ", other condition" : "");
            }
            case EXCHANGE_RECEIVER -> {
                lines.add(prefix, "ExchangeReceiver" + role, TASK, "", "");
                fragment(read.fragment(executor.getExchangeReceiver().getSourceFragment()), childIndent + "└─",
                        childIndent + "  ");
                return;
            }
            default -> {
                name = executor.getKindCase().name();
                info = "";
            }
        }
        lines.add(prefix, name + role, TASK, access, info);
        List<MppExecutor> children = executor.getChildrenList();
        for (int i = 0; i < children.size(); i++) {
            boolean last = i == children.size() - 1;
            String childRole = executor.hasHashJoin() ? (i == 0 ? "(Left)" : "(Right)") : "";
            executor(children.get(i), childIndent + (last ? "└─" : "├─"), childIndent + (last ? "  " : "│ "), childRole);
        }
    }

    private static String call(AggregateCall call) {
        return call.getFunction().name().toLowerCase(Locale.ROOT) + "(" + (call.hasArgument() ? column(call.getArgument()) : "*")
                + ")";
    }

    private static String columns(List<Expression> expressions) {
        return expressions.stream().map(MppExplainer::column).collect(Collectors.joining(", "));
    }

    private static String column(Expression expression) {
        return expression.hasColumn() ? "#" + expression.getColumn() : "<expr>";
    }
}
