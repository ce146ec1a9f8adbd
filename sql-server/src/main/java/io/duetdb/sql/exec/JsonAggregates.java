package io.duetdb.sql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.json.Json;
import io.duetdb.sql.prepare.JsonTypes;

/** MySQL's JSON_ARRAYAGG and JSON_OBJECTAGG, which keep NULL values as JSON null. */
final class JsonAggregates {
    private JsonAggregates() {
    }

    static Accumulator of(AggregateCall call, RelDataType inputType) {
        List<Integer> arguments = call.getArgList();
        boolean[] json = new boolean[arguments.size()];
        boolean[] bool = new boolean[arguments.size()];
        for (int i = 0; i < arguments.size() && inputType != null; i++) {
            RelDataType type = inputType.getFieldList().get(arguments.get(i)).getType();
            json[i] = JsonTypes.isJson(type);
            bool[i] = type.getSqlTypeName() == SqlTypeName.BOOLEAN;
        }
        String name = call.getAggregation().getName();
        if (name.equalsIgnoreCase("JSON_ARRAYAGG")) {
            return new Accumulator(call) {
                private final List<Object> array = new ArrayList<>();

                @Override
                void accept(Object[] values) {
                    array.add(JsonExpressions.toJson(values[0], json[0], bool[0], "json_arrayagg", 1));
                }

                @Override
                boolean skipsNulls() {
                    return false;
                }

                @Override
                Object result() {
                    return array.isEmpty() ? null : Json.write(array);
                }
            };
        }
        return new Accumulator(call) {
            private final Map<String, Object> object = Json.newObject();
            private boolean empty = true;

            @Override
            void accept(Object[] values) {
                if (values[0] == null) {
                    throw new DuetException(ErrorCode.JSON_DOCUMENT_NULL_KEY,
                            "JSON documents may not contain NULL member names.");
                }
                empty = false;
                object.put(Values.toText(values[0]), JsonExpressions.toJson(values[1], json[1], bool[1],
                        "json_objectagg", 2));
            }

            @Override
            boolean skipsNulls() {
                return false;
            }

            @Override
            Object result() {
                return empty ? null : Json.write(object);
            }
        };
    }
}
