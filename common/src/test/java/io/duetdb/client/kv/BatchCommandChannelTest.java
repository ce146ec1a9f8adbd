package io.duetdb.client.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.duetdb.proto.kv.BatchCommandsRequest;
import io.duetdb.proto.kv.BatchCommandsResponse;
import io.duetdb.proto.kv.KvGrpc;
import io.duetdb.proto.kv.RawGetRequest;
import io.duetdb.proto.kv.RawGetResponse;
import io.duetdb.proto.kv.RawScanRequest;
import io.duetdb.proto.kv.RawScanResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;

class BatchCommandChannelTest {
    /** Answers a raw get with the key as its value; keys starting with "silent" get no answer, "fail" a failure. */
    private static final class FakeStore extends KvGrpc.KvImplBase {
        final AtomicInteger messages = new AtomicInteger();
        final AtomicInteger unaryScans = new AtomicInteger();
        final List<StreamObserver<BatchCommandsResponse>> streams = new CopyOnWriteArrayList<>();

        @Override
        public StreamObserver<BatchCommandsRequest> batchCommands(StreamObserver<BatchCommandsResponse> responses) {
            streams.add(responses);
            return new StreamObserver<>() {
                @Override
                public void onNext(BatchCommandsRequest request) {
                    messages.incrementAndGet();
                    BatchCommandsResponse.Builder answer = BatchCommandsResponse.newBuilder();
                    for (BatchCommandsRequest.Command command : request.getCommandsList()) {
                        String key = command.getRawGet().getKey().toStringUtf8();
                        if (key.startsWith("silent")) {
                            continue;
                        }
                        BatchCommandsResponse.Reply.Builder reply = BatchCommandsResponse.Reply.newBuilder().setId(command.getId());
                        if (key.startsWith("fail")) {
                            reply.setFailure("broken disk");
                        } else {
                            reply.setRawGet(RawGetResponse.newBuilder().setValue(command.getRawGet().getKey()));
                        }
                        answer.addReplies(reply);
                    }
                    synchronized (responses) {
                        responses.onNext(answer.build());
                    }
                }

                @Override
                public void onError(Throwable error) {
                }

                @Override
                public void onCompleted() {
                    responses.onCompleted();
                }
            };
        }

        @Override
        public void rawScan(RawScanRequest request, StreamObserver<RawScanResponse> observer) {
            unaryScans.incrementAndGet();
            observer.onNext(RawScanResponse.getDefaultInstance());
            observer.onCompleted();
        }
    }

    private final FakeStore store = new FakeStore();
    private ScheduledExecutorService scheduler;
    private Server server;
    private BatchCommandChannel channel;

    @BeforeEach
    void start() throws IOException {
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(store).build().start();
        scheduler = Executors.newSingleThreadScheduledExecutor();
        channel = new BatchCommandChannel(NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build(),
                scheduler);
    }

    @AfterEach
    void stop() {
        channel.close();
        server.shutdownNow();
        scheduler.shutdownNow();
    }

    private KvGrpc.KvBlockingStub stub() {
        return KvGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);
    }

    private static RawGetRequest get(String key) {
        return RawGetRequest.newBuilder().setKey(ByteString.copyFromUtf8(key)).build();
    }

    @Test
    void concurrentCallersEachGetTheirOwnAnswer() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(32);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int caller = 0; caller < 32; caller++) {
                int id = caller;
                results.add(callers.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        String key = "key-" + id + "-" + i;
                        if (!stub().rawGet(get(key)).getValue().toStringUtf8().equals(key)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            callers.shutdownNow();
        }
        assertThat(store.streams).hasSize(1);
        assertThat(store.messages.get()).isPositive().isLessThanOrEqualTo(32 * 200);
    }

    @Test
    void unansweredCallFailsAtItsDeadlineWithoutHoldingUpOthers() {
        long started = System.nanoTime();
        assertThatThrownBy(() -> KvGrpc.newBlockingStub(channel).withDeadlineAfter(200, TimeUnit.MILLISECONDS)
                .rawGet(get("silent")))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isBetween(150L, 3_000L);
        assertThat(stub().rawGet(get("after")).getValue().toStringUtf8()).isEqualTo("after");
    }

    @Test
    void failedCommandSurfacesAsInternalStatus() {
        assertThatThrownBy(() -> stub().rawGet(get("fail")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
                    assertThat(e.getStatus().getDescription()).contains("RawGet").contains("broken disk");
                });
    }

    @Test
    void brokenStreamFailsOutstandingCallsAsUnavailableAndTheNextCallReconnects() throws Exception {
        assertThat(stub().rawGet(get("first")).getValue().toStringUtf8()).isEqualTo("first");
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<RawGetResponse> waiting = caller.submit(() -> stub().rawGet(get("silent-forever")));
            waitFor(() -> store.messages.get() >= 2);
            store.streams.get(0).onError(Status.UNAVAILABLE.withDescription("store stopping").asRuntimeException());
            assertThatThrownBy(waiting::get).hasCauseInstanceOf(StatusRuntimeException.class)
                    .cause().satisfies(e -> assertThat(((StatusRuntimeException) e).getStatus().getCode())
                            .isEqualTo(Status.Code.UNAVAILABLE));
        } finally {
            caller.shutdownNow();
        }
        assertThat(stub().rawGet(get("second")).getValue().toStringUtf8()).isEqualTo("second");
        assertThat(store.streams).hasSize(2);
    }

    @Test
    void scansStayUnary() {
        stub().rawScan(RawScanRequest.getDefaultInstance());
        assertThat(store.unaryScans.get()).isEqualTo(1);
        assertThat(store.streams).isEmpty();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            Thread.sleep(10);
        }
    }
}
