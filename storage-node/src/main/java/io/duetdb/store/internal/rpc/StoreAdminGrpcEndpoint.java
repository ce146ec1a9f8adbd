package io.duetdb.store.internal.rpc;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Executor;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.region.RegionErrors;
import io.duetdb.proto.store.CreatePeerRequest;
import io.duetdb.proto.store.CreatePeerResponse;
import io.duetdb.proto.store.FetchSnapshotRequest;
import io.duetdb.proto.store.ListRegionsRequest;
import io.duetdb.proto.store.ListRegionsResponse;
import io.duetdb.proto.store.LocalRegion;
import io.duetdb.proto.store.MergeRegionRequest;
import io.duetdb.proto.store.MergeRegionResponse;
import io.duetdb.proto.store.SnapshotChunk;
import io.duetdb.proto.store.SplitRegionRequest;
import io.duetdb.proto.store.SplitRegionResponse;
import io.duetdb.proto.store.StoreAdminGrpc;
import io.duetdb.proto.store.TransferLeaderRequest;
import io.duetdb.proto.store.TransferLeaderResponse;
import io.duetdb.store.internal.StoreNode;
import io.duetdb.store.internal.region.RegionPeer;
import io.duetdb.store.internal.schedule.RegionMerger;
import io.duetdb.store.internal.schedule.RegionOperations;
import io.duetdb.store.internal.snapshot.SnapshotTransfer;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/** Replica creation, snapshots, and operations by hand (split, leader transfer), over gRPC. */
public final class StoreAdminGrpcEndpoint extends StoreAdminGrpc.StoreAdminImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(StoreAdminGrpcEndpoint.class);

    private final StoreNode node;
    private final RegionOperations operations;
    private final SnapshotTransfer snapshots;
    private final RegionMerger merger;
    private final Executor slow;

    public StoreAdminGrpcEndpoint(StoreNode node, RegionOperations operations, RegionMerger merger,
            SnapshotTransfer snapshots, Executor slow) {
        this.node = requireNonNull(node, "node is null");
        this.operations = requireNonNull(operations, "operations is null");
        this.merger = requireNonNull(merger, "merger is null");
        this.snapshots = requireNonNull(snapshots, "snapshots is null");
        this.slow = requireNonNull(slow, "slow is null");
    }

    @Override
    public void createPeer(CreatePeerRequest request, StreamObserver<CreatePeerResponse> observer) {
        answer(observer, () -> node.createEmptyPeer(request));
    }

    @Override
    public void fetchSnapshot(FetchSnapshotRequest request, StreamObserver<SnapshotChunk> observer) {
        slow.execute(() -> {
            try {
                snapshots.send(request.getRegionId(), observer::onNext);
                observer.onCompleted();
            } catch (RuntimeException e) {
                LOG.warn("snapshot of region {} failed: {}", request.getRegionId(), e.toString());
                observer.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
            }
        });
    }

    @Override
    public void splitRegion(SplitRegionRequest request, StreamObserver<SplitRegionResponse> observer) {
        slow.execute(() -> answer(observer, () -> node.peer(request.getRegionId())
                .map(peer -> operations.split(peer, request.getSplitKey().toByteArray()))
                .orElseGet(() -> SplitRegionResponse.newBuilder()
                        .setRegionError(RegionErrors.regionNotFound(request.getRegionId())).build())));
    }

    @Override
    public void transferLeader(TransferLeaderRequest request, StreamObserver<TransferLeaderResponse> observer) {
        slow.execute(() -> answer(observer, () -> node.peer(request.getRegionId())
                .map(peer -> operations.transferLeader(peer, request.getToStoreId()))
                .orElseGet(() -> TransferLeaderResponse.newBuilder()
                        .setRegionError(RegionErrors.regionNotFound(request.getRegionId())).build())));
    }

    @Override
    public void mergeRegion(MergeRegionRequest request, StreamObserver<MergeRegionResponse> observer) {
        slow.execute(() -> answer(observer, () -> {
            if (request.hasPreparedSource()) {
                return node.peer(request.getTargetRegionId())
                        .map(peer -> merger.commit(peer, request.getPreparedSource()))
                        .orElseGet(() -> MergeRegionResponse.newBuilder()
                                .setRegionError(RegionErrors.regionNotFound(request.getTargetRegionId())).build());
            }
            return node.peer(request.getSourceRegionId())
                    .map(peer -> merger.merge(peer, request.getTargetRegionId()))
                    .orElseGet(() -> MergeRegionResponse.newBuilder()
                            .setRegionError(RegionErrors.regionNotFound(request.getSourceRegionId())).build());
        }));
    }

    @Override
    public void listRegions(ListRegionsRequest request, StreamObserver<ListRegionsResponse> observer) {
        answer(observer, () -> {
            ListRegionsResponse.Builder response = ListRegionsResponse.newBuilder();
            for (RegionPeer peer : node.peers()) {
                LocalRegion.Builder local = LocalRegion.newBuilder()
                        .setAppliedIndex(Math.max(0, peer.stateMachine().applied().index()))
                        .setState(peer.state() == null ? "EMPTY" : peer.state().getState().name());
                if (peer.region() != null) {
                    local.setRegion(peer.region());
                }
                try {
                    local.setRole(peer.handle() == null ? "STARTING" : peer.handle().role());
                } catch (RuntimeException e) {
                    local.setRole("CLOSED");
                }
                response.addRegions(local);
            }
            return response.build();
        });
    }

    private static <T> void answer(StreamObserver<T> observer, Supplier<T> handler) {
        T response;
        try {
            response = handler.get();
        } catch (RuntimeException e) {
            observer.onError(Status.INTERNAL.withDescription(String.valueOf(e.getMessage())).asRuntimeException());
            return;
        }
        observer.onNext(response);
        observer.onCompleted();
    }
}
