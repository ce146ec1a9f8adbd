package io.duetdb.common.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.status.Readiness.NotReady;

class ReadinessTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger("readiness-test");
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final AtomicLong nanos = new AtomicLong();
    private final Readiness readiness = new Readiness(logger, nanos::get, Duration.ofSeconds(10));

    @BeforeEach
    void captureLines() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void stopCapturing() {
        logger.detachAppender(lines);
    }

    private List<String> logged() {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    @Test
    void oneLinePerWaitAReminderEveryTenSecondsAndTheWaitOnTheStatus() {
        assertThat(readiness.status()).containsEntry("state", "starting").doesNotContainKey("waitingFor");

        readiness.waitingFor("placement members", "no answer from 10.0.0.1:2379");
        advance(Duration.ofSeconds(4));
        readiness.waitingFor("placement members", "no answer from 10.0.0.1:2379, 10.0.0.2:2379");
        assertThat(logged()).containsExactly("waiting for placement members: no answer from 10.0.0.1:2379");
        assertThat(readiness.status()).containsEntry("state", "waiting")
                .containsEntry("waitingFor", "placement members")
                .containsEntry("detail", "no answer from 10.0.0.1:2379, 10.0.0.2:2379")
                .containsEntry("waitingSeconds", 4L);

        advance(Duration.ofSeconds(6));
        readiness.waitingFor("placement members", "no answer from 10.0.0.1:2379");
        advance(Duration.ofSeconds(9));
        readiness.waitingFor("placement members", "no answer from 10.0.0.1:2379");
        assertThat(logged()).hasSize(2).last()
                .isEqualTo("still waiting for placement members after 10 s: no answer from 10.0.0.1:2379");

        readiness.waitingFor("placement leader", "pd-2 answers, no leader elected yet");
        assertThat(logged()).hasSize(3).last().isEqualTo("waiting for placement leader: pd-2 answers, no leader elected yet");
        assertThat(readiness.waitingFor()).isEqualTo("placement leader");
        assertThat(readiness.isServing()).isFalse();

        advance(Duration.ofMillis(1_500));
        readiness.serving();
        assertThat(logged()).hasSize(4).last().isEqualTo("done waiting for placement leader after 1500 ms");
        assertThat(readiness.isServing()).isTrue();
        assertThat(readiness.waitingFor()).isNull();
        assertThat(readiness.status()).containsOnlyKeys("state").containsEntry("state", "serving");
    }

    @Test
    void awaitReturnsWhatTheCheckFindsOnceItIsThere() {
        AtomicInteger attempts = new AtomicInteger();
        String leader = readiness.await(() -> {
            if (attempts.incrementAndGet() < 3) {
                throw new NotReady("placement leader", "attempt " + attempts.get());
            }
            return "pd-1";
        }, Duration.ofMillis(1));
        assertThat(leader).isEqualTo("pd-1");
        assertThat(attempts).hasValue(3);
        assertThat(logged()).containsExactly("waiting for placement leader: attempt 1");
    }

    @Test
    void stopEndsAWaitInProgress() throws Exception {
        Readiness waiting = new Readiness(logger);
        CompletableFuture<Object> wait = CompletableFuture.supplyAsync(() -> waiting.await(() -> {
            throw new NotReady("cluster bootstrap", "no store yet");
        }, Duration.ofSeconds(30)));
        while (waiting.waitingFor() == null) {
            Thread.sleep(10);
        }
        waiting.stop();
        assertThatThrownBy(() -> wait.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(DuetException.class)
                .hasMessageContaining("stopped while waiting for cluster bootstrap")
                .satisfies(error -> assertThat(((DuetException) error).code()).isEqualTo(ErrorCode.SERVER_SHUTDOWN));
        assertThat(waiting.status()).containsEntry("state", "stopped");
    }
}
