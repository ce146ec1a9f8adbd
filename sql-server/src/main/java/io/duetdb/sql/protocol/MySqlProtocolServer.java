package io.duetdb.sql.protocol;

import static java.util.Objects.requireNonNull;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.concurrent.ExecutorService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.config.HostAndPort;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.sql.session.SessionManager;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/** The MySQL protocol endpoint: a Netty server whose connections run their statements on an executor. */
public final class MySqlProtocolServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MySqlProtocolServer.class);

    private final HostAndPort address;
    private final SessionManager sessions;
    private final ExecutorService statementExecutor;
    private final long maxPacketBytes;
    private final String serverVersion;
    private final SecureRandom random = new SecureRandom();
    private final ServerAuthentication authentication = new ServerAuthentication(random);
    private EventLoopGroup bossGroup;
    private EventLoopGroup workerGroup;
    private Channel serverChannel;

    private final io.netty.handler.ssl.SslContext tls;

    /** {@code tls} null: the server offers no TLS. */
    public MySqlProtocolServer(HostAndPort address, SessionManager sessions, ExecutorService statementExecutor,
            long maxPacketBytes, String serverVersion, io.netty.handler.ssl.SslContext tls) {
        this.tls = tls;
        this.address = requireNonNull(address, "address is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.statementExecutor = requireNonNull(statementExecutor, "statementExecutor is null");
        this.maxPacketBytes = maxPacketBytes;
        this.serverVersion = requireNonNull(serverVersion, "serverVersion is null");
    }

    public void start() {
        // The native epoll transport where Linux offers it: fewer system calls per packet than NIO's selector, which
        // matters when tens of connections each send small statements.
        boolean epoll = Epoll.isAvailable();
        bossGroup = new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        workerGroup = new MultiThreadIoEventLoopGroup(2, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        PacketFrameDecoder decoder = new PacketFrameDecoder(maxPacketBytes);
                        long connectionId = sessions.nextConnectionId();
                        channel.pipeline().addLast(decoder, new MySqlConnectionHandler(sessions, statementExecutor,
                                decoder, connectionId, serverVersion, random, tls, authentication));
                    }
                });
        try {
            serverChannel = bootstrap.bind(new InetSocketAddress(address.host(), address.port())).sync().channel();
        } catch (Exception e) {
            close();
            throw new DuetException(ErrorCode.ADDRESS_IN_USE, "cannot listen for MySQL clients on " + address + ": "
                    + e.getMessage(), e);
        }
        LOG.info("MySQL protocol listening on {} ({} transport)", boundAddress(), epoll ? "epoll" : "NIO");
    }

    public HostAndPort boundAddress() {
        InetSocketAddress bound = (InetSocketAddress) serverChannel.localAddress();
        return new HostAndPort(address.host(), bound.getPort());
    }

    @Override
    public void close() {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
            serverChannel = null;
        }
        if (bossGroup != null) {
            bossGroup.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
            workerGroup.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
            bossGroup = null;
        }
    }

}
