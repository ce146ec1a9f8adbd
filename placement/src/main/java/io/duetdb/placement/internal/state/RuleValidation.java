package io.duetdb.placement.internal.state;

import java.util.Optional;

import io.duetdb.common.keys.KeyRanges;
import io.duetdb.proto.meta.PeerRole;
import io.duetdb.proto.placement.LabelConstraint;
import io.duetdb.proto.placement.LabelOperator;
import io.duetdb.proto.placement.PlacementRule;

/** What makes a placement rule acceptable. */
public final class RuleValidation {
    static final int MAX_COUNT = 5;

    private RuleValidation() {
    }

    public static Optional<String> check(PlacementRule rule) {
        if (rule.getId().isBlank()) {
            return Optional.of("a placement rule needs an id");
        }
        if (!KeyRanges.isValid(rule.getStartKey().toByteArray(), rule.getEndKey().toByteArray())) {
            return Optional.of("placement rule " + rule.getId() + ": start key is not before end key");
        }
        if (rule.getRole() != PeerRole.LEARNER) {
            return Optional.of("placement rule " + rule.getId()
                    + ": only LEARNER rules are supported; voters follow max-replicas");
        }
        if (rule.getCount() < 1 || rule.getCount() > MAX_COUNT) {
            return Optional.of("placement rule " + rule.getId() + ": count must be 1.." + MAX_COUNT);
        }
        for (LabelConstraint constraint : rule.getLabelConstraintsList()) {
            if (constraint.getKey().isBlank() || constraint.getOp() == LabelOperator.LABEL_OPERATOR_UNSPECIFIED) {
                return Optional.of("placement rule " + rule.getId() + ": label constraint needs a key and an operator");
            }
            boolean needsValues = constraint.getOp() == LabelOperator.IN || constraint.getOp() == LabelOperator.NOT_IN;
            if (needsValues && constraint.getValuesCount() == 0) {
                return Optional.of("placement rule " + rule.getId() + ": " + constraint.getOp() + " needs values");
            }
        }
        return Optional.empty();
    }
}
