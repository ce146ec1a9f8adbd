package io.duetdb.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The application {@link ItSparkSubmit} hands to spark-submit: it sees only Spark's API and the catalog the command
 * line configures. It reads test.source, prints its count and sum, and appends it doubled to test.target.
 */
public final class SubmitApp {
    private SubmitApp() {
    }

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().appName("duet-submit-test").getOrCreate();
        try {
            Row row = spark.sql("SELECT count(*), sum(amount) FROM duet.test.source").first();
            System.out.println("source rows=" + row.getLong(0) + " sum=" + row.getDecimal(1));
            spark.sql("INSERT INTO duet.test.target SELECT id, amount * 2 FROM duet.test.source");
            System.out.println("target rows=" + spark.table("duet.test.target").count());
        } finally {
            spark.stop();
        }
    }
}
