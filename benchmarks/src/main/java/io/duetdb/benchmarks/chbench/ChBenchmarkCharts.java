package io.duetdb.benchmarks.chbench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The interference charts of the TiDB paper's Figure 10, as PNG files: transactional throughput against the number of
 * analytical clients (a line per transactional client count), and analytical throughput against the number of
 * transactional clients (a line per analytical client count).
 */
final class ChBenchmarkCharts {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 500;

    private ChBenchmarkCharts() {
    }

    static void write(List<ChBenchmark.Cell> cells, Path directory) throws IOException {
        XYSeriesCollection transactional = new XYSeriesCollection();
        for (int tp : new TreeSet<>(cells.stream().map(ChBenchmark.Cell::tpClients).filter(tp -> tp > 0).toList())) {
            XYSeries series = new XYSeries(tp + " TP clients");
            cells.stream().filter(cell -> cell.tpClients() == tp)
                    .forEach(cell -> series.add(cell.apClients(), cell.tpmC()));
            transactional.addSeries(series);
        }
        save(ChartFactory.createXYLineChart("TP throughput under AP load", "AP clients", "tpmC", transactional,
                PlotOrientation.VERTICAL, true, false, false), directory.resolve("tp-throughput.png"));
        XYSeriesCollection analytical = new XYSeriesCollection();
        for (int ap : new TreeSet<>(cells.stream().map(ChBenchmark.Cell::apClients).filter(ap -> ap > 0).toList())) {
            XYSeries series = new XYSeries(ap + " AP clients");
            cells.stream().filter(cell -> cell.apClients() == ap)
                    .forEach(cell -> series.add(cell.tpClients(), cell.queriesPerHour()));
            analytical.addSeries(series);
        }
        save(ChartFactory.createXYLineChart("AP throughput under TP load", "TP clients", "queries per hour",
                analytical, PlotOrientation.VERTICAL, true, false, false), directory.resolve("ap-throughput.png"));
    }

    private static void save(JFreeChart chart, Path file) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
    }
}
