package io.duetdb.common.json;

/** JSON's null, distinct from SQL NULL (Java null), which means "no value" here. */
public enum JsonNull {
    NULL;

    @Override
    public String toString() {
        return "null";
    }
}
