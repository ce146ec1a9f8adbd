package io.duetdb.sql.protocol;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;
import io.duetdb.common.types.SqlType;
import io.duetdb.sql.catalog.AuthenticationPlugin;
import io.duetdb.sql.catalog.UserInfo;
import io.duetdb.sql.session.QueryResult;
import io.duetdb.sql.session.ResultColumn;
import io.duetdb.sql.session.Session;
import io.duetdb.sql.session.SessionManager;
import io.duetdb.sql.session.StatementResult;
import io.duetdb.sql.session.UpdateResult;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * One client connection: the v10 handshake, authentication, then one command at a time. Commands run on the
 * statement executor, never on the event loop; the channel stops reading while a command runs, which keeps
 * commands in order and applies back-pressure to a client that pipelines.
 */
final class MySqlConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(MySqlConnectionHandler.class);
    private static final int COM_QUIT = 0x01;
    private static final int COM_INIT_DB = 0x02;
    private static final int COM_QUERY = 0x03;
    private static final int COM_FIELD_LIST = 0x04;
    private static final int COM_STATISTICS = 0x09;
    private static final int COM_PROCESS_KILL = 0x0C;
    private static final int COM_PING = 0x0E;
    private static final int COM_STMT_PREPARE = 0x16;
    private static final int COM_STMT_EXECUTE = 0x17;
    private static final int COM_STMT_SEND_LONG_DATA = 0x18;
    private static final int COM_STMT_CLOSE = 0x19;
    private static final int COM_STMT_RESET = 0x1A;
    private static final int COM_SET_OPTION = 0x1B;
    private static final int COM_RESET_CONNECTION = 0x1F;

    private static final int AUTH_MORE_DATA = 0x01;
    private static final int REQUEST_PUBLIC_KEY = 0x02;
    private static final int FAST_AUTH_SUCCESS = 0x03;
    private static final int PERFORM_FULL_AUTHENTICATION = 0x04;

    private enum State { AWAITING_HANDSHAKE_RESPONSE, AWAITING_AUTH_SWITCH_RESPONSE, AWAITING_PASSWORD, COMMANDS, CLOSED }

    private final SessionManager sessions;
    private final Executor statementExecutor;
    private final PacketFrameDecoder frameDecoder;
    private final long connectionId;
    private final String serverVersion;
    private final byte[] scramble;
    private State state = State.AWAITING_HANDSHAKE_RESPONSE;
    private PacketWriter writer;
    private int clientCapabilities;
    private final ServerAuthentication authentication;
    private boolean secure;
    private String user;
    private String host;
    private UserInfo account;
    private AuthenticationPlugin plugin;
    private boolean passwordSent;
    private String database;
    private Session session;
    /** Per prepared statement: the parameter types of its last execution (clients send them only once). */
    private final java.util.Map<Integer, int[]> boundTypes = new java.util.HashMap<>();
    /** Per prepared statement: values sent with COM_STMT_SEND_LONG_DATA, by parameter. */
    private final java.util.Map<Integer, java.util.Map<Integer, java.io.ByteArrayOutputStream>> longData =
            new java.util.HashMap<>();

    private final io.netty.handler.ssl.SslContext tls;
    private final int serverCapabilities;

    private record QueuedCommand(ByteBuf packet, int sequenceId) {
    }

    /**
     * Commands a client may send ahead before the channel stops reading. Reading goes on while a command runs (a
     * client that waits for each answer never reaches this), so a command costs no two epoll changes.
     */
    private static final int MAX_QUEUED_COMMANDS = 16;

    /** Commands received and not yet started, oldest first; used on the event loop only. */
    private final java.util.ArrayDeque<QueuedCommand> queued = new java.util.ArrayDeque<>();
    private boolean commandRunning;
    /** The header of the last result set written; commands run one at a time, each handing over to the next. */
    private volatile ResultSetHeader lastHeader;
    /** The file a LOAD DATA LOCAL statement is receiving; null otherwise. */
    private volatile LocalInfileReceiver infile;
    /** Statements prepared as their text (TextStatements), by id. */
    private final java.util.Map<Integer, String> textStatements = new java.util.HashMap<>();
    private int nextTextStatementId = -1;

    MySqlConnectionHandler(SessionManager sessions, Executor statementExecutor, PacketFrameDecoder frameDecoder,
            long connectionId, String serverVersion, SecureRandom random, io.netty.handler.ssl.SslContext tls,
            ServerAuthentication authentication) {
        this.tls = tls;
        this.authentication = authentication;
        this.serverCapabilities = Capabilities.SERVER | (tls != null ? Capabilities.SSL : 0);
        this.sessions = sessions;
        this.statementExecutor = statementExecutor;
        this.frameDecoder = frameDecoder;
        this.connectionId = connectionId;
        this.serverVersion = serverVersion;
        this.scramble = NativePassword.newScramble(random);
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        writer = new PacketWriter(context.channel());
        writer.startReplyTo(-1);
        ByteBuf greeting = writer.newPayload();
        greeting.writeByte(10);
        Packets.writeNullTerminatedString(greeting, serverVersion);
        greeting.writeIntLE((int) connectionId);
        greeting.writeBytes(scramble, 0, 8);
        greeting.writeByte(0);
        greeting.writeShortLE(serverCapabilities & 0xFFFF);
        greeting.writeByte(WireTypes.UTF8MB4_BIN);
        greeting.writeShortLE(ServerStatus.AUTOCOMMIT);
        greeting.writeShortLE(serverCapabilities >>> 16);
        greeting.writeByte(scramble.length + 1);
        greeting.writeZero(10);
        greeting.writeBytes(scramble, 8, 12);
        greeting.writeByte(0);
        Packets.writeNullTerminatedString(greeting, sessions.settings().defaultAuthenticationPlugin().pluginName());
        writer.write(greeting);
        writer.flush();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        ByteBuf packet = (ByteBuf) message;
        int sequenceId = frameDecoder.lastSequenceId();
        try {
            LocalInfileReceiver receiving = infile;
            if (receiving != null) {
                receiveInfile(context, receiving, packet, sequenceId);
                return;
            }
            switch (state) {
                case AWAITING_HANDSHAKE_RESPONSE -> readHandshakeResponse(context, packet);
                case AWAITING_AUTH_SWITCH_RESPONSE -> readAuthSwitchResponse(context, packet, sequenceId);
                case AWAITING_PASSWORD -> readPassword(context, packet, sequenceId);
                case COMMANDS -> {
                    queued.add(new QueuedCommand(packet.retain(), sequenceId));
                    if (queued.size() > MAX_QUEUED_COMMANDS) {
                        context.channel().config().setAutoRead(false);
                    }
                    runNextCommand(context);
                }
                case CLOSED -> {
                }
            }
        } finally {
            packet.release();
        }
    }

    /** A packet of a LOAD DATA LOCAL file (event loop); the empty one ends it, and the reply follows it. */
    private void receiveInfile(ChannelHandlerContext context, LocalInfileReceiver receiving, ByteBuf packet,
            int sequenceId) {
        byte[] payload = new byte[packet.readableBytes()];
        packet.readBytes(payload);
        if (payload.length == 0) {
            // The end of the file: the statement's reply continues the client's sequence.
            infile = null;
            writer.startReplyTo(sequenceId);
            context.channel().config().setAutoRead(false);
            receiving.offer(payload);
        } else if (receiving.offer(payload)) {
            context.channel().config().setAutoRead(false);
        }
    }

    /**
     * LOAD DATA LOCAL (statement thread): asks the client for {@code name} and streams the packets it sends. The
     * client must have said it allows local files (CLIENT_LOCAL_FILES).
     */
    private java.io.InputStream openLocalFile(ChannelHandlerContext context, String name) {
        if ((clientCapabilities & Capabilities.LOCAL_FILES) == 0) {
            return io.duetdb.sql.session.LocalFiles.NONE.open(name);
        }
        LocalInfileReceiver receiver = new LocalInfileReceiver(() -> context.executor().execute(() -> {
            if (infile != null) {
                context.channel().config().setAutoRead(true);
            }
        }));
        infile = receiver;
        ByteBuf request = writer.newPayload();
        request.writeByte(0xFB);
        request.writeBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        writer.write(request);
        writer.flush();
        context.executor().execute(() -> context.channel().config().setAutoRead(true));
        return receiver;
    }

    private void readHandshakeResponse(ChannelHandlerContext context, ByteBuf packet) {
        if (packet.readableBytes() < 32) {
            throw new MalformedPacketException("handshake response of " + packet.readableBytes() + " bytes");
        }
        clientCapabilities = packet.readIntLE() & serverCapabilities;
        packet.skipBytes(4 + 1 + 23);
        if (!packet.isReadable()) {
            // An SSLRequest: switch the connection to TLS; the full handshake response follows encrypted.
            if (tls == null || (clientCapabilities & Capabilities.SSL) == 0) {
                throw new MalformedPacketException("TLS was requested, but the server did not offer it");
            }
            context.pipeline().addFirst("tls", tls.newHandler(context.alloc()));
            secure = true;
            // The ClientHello may have come in the same read as the SSLRequest: the TLS handler must see it.
            ByteBuf early = frameDecoder.takeBuffered();
            if (early.isReadable()) {
                context.pipeline().fireChannelRead(early);
            } else {
                early.release();
            }
            return;
        }
        user = Packets.readNullTerminatedString(packet);
        byte[] authResponse;
        if ((clientCapabilities & Capabilities.PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
            authResponse = Packets.readLengthEncodedBytes(packet);
        } else if ((clientCapabilities & Capabilities.SECURE_CONNECTION) != 0) {
            authResponse = new byte[packet.readUnsignedByte()];
            packet.readBytes(authResponse);
        } else {
            authResponse = Packets.readNullTerminatedString(packet).getBytes(StandardCharsets.UTF_8);
        }
        if ((clientCapabilities & Capabilities.CONNECT_WITH_DB) != 0 && packet.isReadable()) {
            database = Packets.readNullTerminatedString(packet);
            if (database.isEmpty()) {
                database = null;
            }
        }
        String clientPlugin = AuthenticationPlugin.MYSQL_NATIVE_PASSWORD.pluginName();
        if ((clientCapabilities & Capabilities.PLUGIN_AUTH) != 0 && packet.isReadable()) {
            clientPlugin = Packets.readNullTerminatedString(packet);
        }
        writer.startReplyTo(frameDecoder.lastSequenceId());
        host = remoteHost(context);
        account = sessions.account(user, host).orElse(null);
        // An unknown account is refused after the same exchange as a known one, as MySQL does.
        plugin = account != null ? account.plugin() : AuthenticationPlugin.fromName(clientPlugin)
                .orElse(AuthenticationPlugin.MYSQL_NATIVE_PASSWORD);
        if (!plugin.pluginName().equals(clientPlugin)) {
            // Ask the client to answer our scramble with the account's plugin instead.
            state = State.AWAITING_AUTH_SWITCH_RESPONSE;
            ByteBuf authSwitch = writer.newPayload();
            authSwitch.writeByte(0xFE);
            Packets.writeNullTerminatedString(authSwitch, plugin.pluginName());
            authSwitch.writeBytes(scramble);
            authSwitch.writeByte(0);
            writer.write(authSwitch);
            writer.flush();
            return;
        }
        checkScrambleReply(context, authResponse);
    }

    private void readAuthSwitchResponse(ChannelHandlerContext context, ByteBuf packet, int sequenceId) {
        byte[] authResponse = new byte[packet.readableBytes()];
        packet.readBytes(authResponse);
        writer.startReplyTo(sequenceId);
        checkScrambleReply(context, authResponse);
    }

    /** The client's first answer, computed from the scramble with the account's plugin. */
    private void checkScrambleReply(ChannelHandlerContext context, byte[] reply) {
        passwordSent = reply.length > 0 && !(reply.length == 1 && reply[0] == 0);
        if (account == null) {
            denyAccess(context, "unknown account");
            return;
        }
        if (plugin == AuthenticationPlugin.MYSQL_NATIVE_PASSWORD) {
            boolean valid = NativePassword.verify(java.util.HexFormat.of().parseHex(account.passwordHash()), scramble,
                    reply);
            finishAuthentication(context, valid, "native");
            return;
        }
        if (account.passwordHash().isEmpty() || !passwordSent) {
            finishAuthentication(context, account.passwordHash().isEmpty() == !passwordSent, "empty");
            return;
        }
        byte[] cached = authentication.cachedDoubleSha256(account).orElse(null);
        if (cached != null && CachingSha2Password.verifyScrambleReply(cached, scramble, reply)) {
            writeAuthMoreData(FAST_AUTH_SUCCESS);
            finishAuthentication(context, true, "fast");
            return;
        }
        // Not cached on this server (or a reply that does not match it): the client must send the password.
        state = State.AWAITING_PASSWORD;
        writeAuthMoreData(PERFORM_FULL_AUTHENTICATION);
        writer.flush();
    }

    /**
     * caching_sha2_password's full authentication: over TLS the password in clear with a terminating zero;
     * without TLS a request for the public key (0x02), then the password encrypted with it.
     */
    private void readPassword(ChannelHandlerContext context, ByteBuf packet, int sequenceId) {
        byte[] data = new byte[packet.readableBytes()];
        packet.readBytes(data);
        writer.startReplyTo(sequenceId);
        if (!secure && data.length == 1 && data[0] == REQUEST_PUBLIC_KEY) {
            ByteBuf key = writer.newPayload();
            key.writeByte(AUTH_MORE_DATA);
            key.writeCharSequence(authentication.publicKeyPem(), StandardCharsets.US_ASCII);
            writer.write(key);
            writer.flush();
            return;
        }
        // Decrypting and hashing take milliseconds: off the event loop.
        state = State.CLOSED;
        context.channel().config().setAutoRead(false);
        statementExecutor.execute(() -> {
            byte[] password;
            if (secure) {
                int length = data.length > 0 && data[data.length - 1] == 0 ? data.length - 1 : data.length;
                password = java.util.Arrays.copyOf(data, length);
            } else {
                password = authentication.decryptPassword(data, scramble).orElse(null);
                if (password == null) {
                    denyAccess(context, "the password could not be decrypted");
                    return;
                }
            }
            boolean valid = CachingSha2Password.verifyPassword(account.passwordHash(), password);
            if (valid) {
                authentication.remember(account, password);
            }
            finishAuthentication(context, valid, "full");
        });
    }

    private void writeAuthMoreData(int status) {
        ByteBuf payload = writer.newPayload();
        payload.writeByte(AUTH_MORE_DATA);
        payload.writeByte(status);
        writer.write(payload);
    }

    private void finishAuthentication(ChannelHandlerContext context, boolean valid, String method) {
        sessions.metrics().authentications.labelValues(plugin.pluginName(), method, valid ? "ok" : "denied").inc();
        if (!valid) {
            denyAccess(context, method + " authentication failed");
            return;
        }
        openSession(context, method);
    }

    private void denyAccess(ChannelHandlerContext context, String reason) {
        LOG.info("Connection {} refused: access denied for user '{}'@'{}' ({})", connectionId, user, host, reason);
        writeErrorAndClose(context, new DuetException(ErrorCode.ACCESS_DENIED, "Access denied for user '" + user
                + "'@'" + host + "' (using password: " + (passwordSent ? "YES" : "NO") + ")"));
    }

    private void openSession(ChannelHandlerContext context, String method) {
        // Opening the session may read the catalog: off the event loop.
        state = State.CLOSED;
        context.channel().config().setAutoRead(false);
        statementExecutor.execute(() -> {
            try {
                session = sessions.open(connectionId, user, host, database, () -> context.channel().close());
                session.localFiles(name -> openLocalFile(context, name));
            } catch (DuetException e) {
                writeErrorAndClose(context, e);
                return;
            } catch (RuntimeException e) {
                LOG.warn("Connection {}: opening its session failed", connectionId, e);
                writeErrorAndClose(context, new DuetException(ErrorCode.UNKNOWN_ERROR, String.valueOf(e.getMessage())));
                return;
            }
            state = State.COMMANDS;
            sessions.metrics().connections.inc();
            LOG.info("Connection {} opened for '{}'@'{}' ({}, {} authentication{}){}", connectionId, user, host,
                    plugin.pluginName(), method, secure ? ", TLS" : "", database == null ? "" : " in database " + database);
            writeOk(UpdateResult.NONE);
            writer.flush();
            context.channel().config().setAutoRead(true);
        });
    }

    /**
     * Starts the oldest queued command unless one runs (event loop only). A client may send several commands in
     * one go (COM_STMT_SEND_LONG_DATA or COM_STMT_CLOSE, which get no reply, then the next command): they run one
     * after another, in order.
     */
    private void runNextCommand(ChannelHandlerContext context) {
        if (commandRunning || queued.isEmpty()) {
            return;
        }
        QueuedCommand next = queued.poll();
        commandRunning = true;
        if (!answerWithoutBlocking(context, next)) {
            runOnStatementThread(context, next);
        }
    }

    private void runOnStatementThread(ChannelHandlerContext context, QueuedCommand command) {
        try {
            statementExecutor.execute(() -> runCommand(context, command.packet(), command.sequenceId()));
        } catch (RejectedExecutionException e) {
            command.packet().release();
            context.close();
        }
    }

    /**
     * Answers a COM_QUERY or COM_STMT_EXECUTE that the session can serve without blocking (a point get of one row)
     * from this event loop and the transport's thread, with no statement thread; false when the command must run on
     * one. If the answer does not come (a lock, a region error), the command runs on a statement thread after all.
     */
    private boolean answerWithoutBlocking(ChannelHandlerContext context, QueuedCommand command) {
        ByteBuf packet = command.packet();
        int start = packet.readerIndex();
        int kind = state == State.COMMANDS && packet.isReadable() ? packet.getUnsignedByte(start) : -1;
        if (kind != COM_QUERY && kind != COM_STMT_EXECUTE) {
            return false;
        }
        Optional<CompletableFuture<Optional<StatementResult>>> pending;
        try {
            packet.skipBytes(1);
            if (kind == COM_QUERY) {
                // A text too long to be a point get is not decoded here (large INSERTs would be decoded twice).
                pending = packet.readableBytes() > 4 * Session.POINT_GET_TEXT_LIMIT ? Optional.empty()
                        : session.executeWithoutBlocking(QueryText.read(packet));
            } else {
                int id = packet.readIntLE();
                packet.skipBytes(5); // cursor flags and iteration count
                pending = textStatements.containsKey(id) || longData.containsKey(id) ? Optional.empty()
                        : session.executePreparedWithoutBlocking(id, readParameters(id, packet));
            }
        } catch (RuntimeException e) {
            // The usual way reports what is wrong with the command.
            pending = Optional.empty();
        }
        packet.readerIndex(start);
        if (pending.isEmpty()) {
            return false;
        }
        pending.get().whenComplete((result, failure) -> {
            if (failure != null || result.isEmpty()) {
                runOnStatementThread(context, command);
                return;
            }
            sessions.metrics().commands.labelValues(commandName(kind)).inc();
            try {
                writer.startReplyTo(command.sequenceId());
                if (kind == COM_QUERY) {
                    writeResult(result.get());
                } else {
                    writeBinaryResult(result.get());
                }
            } catch (RuntimeException e) {
                LOG.warn("Connection {}: writing a point get's answer failed", connectionId, e);
                writeError(new DuetException(ErrorCode.UNKNOWN_ERROR, String.valueOf(e.getMessage())));
            } finally {
                packet.release();
            }
            finishCommand(context);
        });
        return true;
    }

    /**
     * Sends a finished command's reply and goes on with the next one, in one task on the event loop: the reply's
     * write and flush from another thread would be tasks of their own.
     */
    private void finishCommand(ChannelHandlerContext context) {
        context.executor().execute(() -> {
            writer.flush();
            commandDone(context);
        });
    }

    /** A command finished (event loop only): the next queued one runs, or the channel reads again. */
    private void commandDone(ChannelHandlerContext context) {
        commandRunning = false;
        runNextCommand(context);
        if (state == State.COMMANDS && queued.size() <= MAX_QUEUED_COMMANDS && infile == null
                && !context.channel().config().isAutoRead()) {
            context.channel().config().setAutoRead(true);
        }
    }

    /** Netty's reads past a buffer's end throw IndexOutOfBoundsException itself; strings and arrays its subclasses. */
    private static boolean isShortPacket(RuntimeException e) {
        return e instanceof MalformedPacketException || e.getClass() == IndexOutOfBoundsException.class;
    }

    private void runCommand(ChannelHandlerContext context, ByteBuf packet, int sequenceId) {
        boolean keepOpen = true;
        try {
            writer.startReplyTo(sequenceId);
            keepOpen = dispatch(context, packet);
        } catch (MalformedPacketException | IndexOutOfBoundsException e) {
            if (isShortPacket(e)) {
                // A command shorter than its fields: the client is out of step with the protocol.
                LOG.info("Connection {}: malformed packet ({}); closing it", connectionId, e.getMessage());
                writeError(new DuetException(ErrorCode.UNKNOWN_COMMAND, "Malformed packet: " + e.getMessage()));
                keepOpen = false;
            } else {
                // A string's or an array's index out of range: a fault of the statement's execution, not the packet.
                LOG.warn("Connection {}: command failed unexpectedly", connectionId, e);
                writeError(new DuetException(ErrorCode.UNKNOWN_ERROR, String.valueOf(e.getMessage())));
            }
        } catch (DuetException e) {
            writeError(e);
        } catch (RuntimeException | StackOverflowError e) {
            LOG.warn("Connection {}: command failed unexpectedly", connectionId, e);
            writeError(new DuetException(ErrorCode.UNKNOWN_ERROR, String.valueOf(e.getMessage())));
        } catch (Error e) {
            // Any other error (out of memory, a class that failed to load) still answers the command: left
            // unanswered, the client would wait for ever on a connection whose next command never runs.
            LOG.error("Connection {}: command failed with {}", connectionId, e.toString(), e);
            writeError(new DuetException(ErrorCode.UNKNOWN_ERROR, "Internal error: " + e));
        } finally {
            packet.release();
        }
        if (keepOpen) {
            finishCommand(context);
        } else {
            writer.send();
            context.writeAndFlush(context.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Runs one command; false when the connection should close. */
    private boolean dispatch(ChannelHandlerContext context, ByteBuf packet) {
        if (!packet.isReadable()) {
            throw new MalformedPacketException("empty command packet");
        }
        int command = packet.readUnsignedByte();
        sessions.metrics().commands.labelValues(commandName(command)).inc();
        switch (command) {
            case COM_QUIT -> {
                return false;
            }
            case COM_QUERY -> writeResult(session.execute(QueryText.read(packet)));
            case COM_STMT_PREPARE -> prepare(QueryText.read(packet));
            case COM_STMT_EXECUTE -> execute(packet);
            case COM_STMT_SEND_LONG_DATA -> {
                int id = packet.readIntLE();
                int parameter = packet.readUnsignedShortLE();
                byte[] chunk = new byte[packet.readableBytes()];
                packet.readBytes(chunk);
                longData.computeIfAbsent(id, key -> new java.util.HashMap<>())
                        .computeIfAbsent(parameter, key -> new java.io.ByteArrayOutputStream()).writeBytes(chunk);
                return true; // no reply
            }
            case COM_STMT_CLOSE -> {
                int id = packet.readIntLE();
                if (textStatements.remove(id) == null) {
                    session.closePrepared(id);
                }
                boundTypes.remove(id);
                longData.remove(id);
                return true; // no reply
            }
            case COM_STMT_RESET -> {
                longData.remove(packet.readIntLE());
                writeOk(UpdateResult.NONE);
            }
            case COM_INIT_DB -> {
                session.useDatabase(Packets.readRestAsString(packet));
                writeOk(UpdateResult.NONE);
            }
            case COM_PING, COM_RESET_CONNECTION -> writeOk(UpdateResult.NONE);
            case COM_SET_OPTION -> writeEof();
            case COM_STATISTICS -> {
                ByteBuf payload = writer.newPayload();
                payload.writeCharSequence(session.statistics(), StandardCharsets.UTF_8);
                writer.write(payload);
            }
            case COM_PROCESS_KILL -> {
                session.kill(packet.readUnsignedIntLE(), false);
                writeOk(UpdateResult.NONE);
            }
            case COM_FIELD_LIST -> {
                String table = Packets.readNullTerminatedString(packet);
                for (ResultColumn column : session.fieldList(table)) {
                    writeColumnDefinition(column, true);
                }
                writeEof();
            }
            default -> throw new DuetException(ErrorCode.UNKNOWN_COMMAND, "Unknown command 0x"
                    + Integer.toHexString(command));
        }
        return true;
    }

    private static String commandName(int command) {
        return switch (command) {
            case COM_QUIT -> "quit";
            case COM_INIT_DB -> "init_db";
            case COM_QUERY -> "query";
            case COM_FIELD_LIST -> "field_list";
            case COM_STATISTICS -> "statistics";
            case COM_PROCESS_KILL -> "process_kill";
            case COM_PING -> "ping";
            case COM_STMT_PREPARE -> "stmt_prepare";
            case COM_STMT_EXECUTE -> "stmt_execute";
            case COM_STMT_SEND_LONG_DATA -> "stmt_send_long_data";
            case COM_STMT_CLOSE -> "stmt_close";
            case COM_STMT_RESET -> "stmt_reset";
            case COM_SET_OPTION -> "set_option";
            case COM_RESET_CONNECTION -> "reset_connection";
            default -> "unknown";
        };
    }

    private void prepare(String sql) {
        io.duetdb.sql.session.PreparedStatementInfo info;
        if (TextStatements.isTextStatement(sql)) {
            // Ids count down from 0xFFFFFFFF here, the session's up from 1.
            info = new io.duetdb.sql.session.PreparedStatementInfo(nextTextStatementId--, 0, List.of());
            textStatements.put(info.id(), sql);
        } else {
            info = session.prepare(sql);
        }
        ByteBuf ok = writer.newPayload();
        ok.writeByte(0x00);
        ok.writeIntLE(info.id());
        ok.writeShortLE(info.columns().size());
        ok.writeShortLE(info.parameterCount());
        ok.writeByte(0);
        ok.writeShortLE(0);
        writer.write(ok);
        if (info.parameterCount() > 0) {
            for (int i = 0; i < info.parameterCount(); i++) {
                writeColumnDefinition(ResultColumn.computed("?", SqlType.LONGTEXT), false);
            }
            if (!deprecateEof()) {
                writeEof();
            }
        }
        if (!info.columns().isEmpty()) {
            for (ResultColumn column : info.columns()) {
                writeColumnDefinition(column, false);
            }
            if (!deprecateEof()) {
                writeEof();
            }
        }
    }

    private void execute(ByteBuf packet) {
        int id = packet.readIntLE();
        packet.readUnsignedByte(); // cursor flags: no cursors, results are sent at once
        packet.readIntLE(); // iteration count, always 1
        String text = textStatements.get(id);
        if (text != null) {
            writeBinaryResult(session.execute(text));
            return;
        }
        writeBinaryResult(session.executePrepared(id, readParameters(id, packet)));
    }

    /** The parameter values of an execution of prepared statement {@code id}, read from its packet. */
    private List<Object> readParameters(int id, ByteBuf packet) {
        int count = session.preparedParameterCount(id);
        List<Object> parameters = new ArrayList<>(count);
        if (count > 0) {
            byte[] nullBitmap = new byte[(count + 7) / 8];
            packet.readBytes(nullBitmap);
            int[] types = boundTypes.get(id);
            if (packet.readUnsignedByte() == 1) {
                types = new int[count];
                for (int i = 0; i < count; i++) {
                    types[i] = packet.readUnsignedShortLE();
                }
                boundTypes.put(id, types);
            }
            if (types == null) {
                throw new MalformedPacketException("parameters of statement " + id + " were never typed");
            }
            java.util.Map<Integer, java.io.ByteArrayOutputStream> sent = longData.remove(id);
            for (int i = 0; i < count; i++) {
                if ((nullBitmap[i / 8] & (1 << (i % 8))) != 0) {
                    parameters.add(null);
                } else if (sent != null && sent.containsKey(i)) {
                    parameters.add(sent.get(i).toByteArray());
                } else {
                    parameters.add(BinaryValues.readParameter(packet, types[i] & 0xFF, (types[i] & 0x8000) != 0));
                }
            }
        }
        return parameters;
    }

    /** A prepared statement's result: an OK, or a result set with binary rows. */
    private void writeBinaryResult(StatementResult result) {
        if (result instanceof UpdateResult update) {
            writeOk(update);
            return;
        }
        QueryResult query = (QueryResult) result;
        List<ResultColumn> columns = query.columns();
        writeResultSetHeader(columns);
        int bitmapLength = (columns.size() + 7 + 2) / 8;
        for (Object[] row : query.rows()) {
            ByteBuf payload = writer.newPayload();
            payload.writeByte(0x00);
            int bitmapStart = payload.writerIndex();
            payload.writeZero(bitmapLength);
            for (int i = 0; i < columns.size(); i++) {
                Object value = row[i];
                if (value == null) {
                    int bit = i + 2;
                    payload.setByte(bitmapStart + bit / 8, payload.getByte(bitmapStart + bit / 8) | (1 << (bit % 8)));
                } else {
                    BinaryValues.writeValue(payload, value, columns.get(i).type());
                }
            }
            writer.write(payload);
        }
        writeEndOfRows();
    }

    private void writeEndOfRows() {
        if (deprecateEof()) {
            ByteBuf ok = writer.newPayload();
            ok.writeByte(0xFE);
            Packets.writeLengthEncodedInteger(ok, 0);
            Packets.writeLengthEncodedInteger(ok, 0);
            ok.writeShortLE(session.statusFlags());
            ok.writeShortLE(session.warningCount());
            writer.write(ok);
        } else {
            writeEof();
        }
    }

    private void writeResult(StatementResult result) {
        if (result instanceof UpdateResult update) {
            writeOk(update);
            return;
        }
        QueryResult query = (QueryResult) result;
        List<ResultColumn> columns = query.columns();
        writeResultSetHeader(columns);
        for (Object[] row : query.rows()) {
            ByteBuf payload = writer.newPayload();
            for (int i = 0; i < columns.size(); i++) {
                Object value = row[i];
                if (value == null) {
                    payload.writeByte(0xFB);
                } else {
                    Packets.writeLengthEncodedBytes(payload, WireTypes.text(value, columns.get(i).type()));
                }
            }
            writer.write(payload);
        }
        writeEndOfRows();
    }

    /** The column count, the column definitions, and the EOF after them unless the client deprecated it. */
    private void writeResultSetHeader(List<ResultColumn> columns) {
        writer.write(resultSetHeader(columns).payloads());
        if (!deprecateEof()) {
            writeEof();
        }
    }

    /**
     * The header's packets, encoded again only when the columns are not those of the last result: a prepared
     * statement's executions return the same column list, and encoding it was half the cost of a point get's answer.
     */
    private ResultSetHeader resultSetHeader(List<ResultColumn> columns) {
        ResultSetHeader header = lastHeader;
        if (header == null || header.columns() != columns) {
            byte[][] payloads = new byte[columns.size() + 1][];
            ByteBuf count = Unpooled.buffer(9);
            Packets.writeLengthEncodedInteger(count, columns.size());
            payloads[0] = ByteBufUtil.getBytes(count);
            for (int i = 0; i < columns.size(); i++) {
                ByteBuf definition = Unpooled.buffer(64);
                encodeColumnDefinition(definition, columns.get(i), false);
                payloads[i + 1] = ByteBufUtil.getBytes(definition);
            }
            header = new ResultSetHeader(columns, payloads);
            lastHeader = header;
        }
        return header;
    }

    /** A result's columns with their packets' payloads. */
    private record ResultSetHeader(List<ResultColumn> columns, byte[][] payloads) {
    }

    private void writeColumnDefinition(ResultColumn column, boolean withDefault) {
        ByteBuf payload = writer.newPayload();
        encodeColumnDefinition(payload, column, withDefault);
        writer.write(payload);
    }

    private static void encodeColumnDefinition(ByteBuf payload, ResultColumn column, boolean withDefault) {
        Packets.writeLengthEncodedString(payload, "def");
        Packets.writeLengthEncodedString(payload, column.database());
        Packets.writeLengthEncodedString(payload, column.table());
        Packets.writeLengthEncodedString(payload, column.table());
        Packets.writeLengthEncodedString(payload, column.label());
        Packets.writeLengthEncodedString(payload, column.originalName());
        payload.writeByte(0x0C);
        payload.writeShortLE(WireTypes.collation(column.type()));
        payload.writeIntLE((int) WireTypes.displayLength(column.type()));
        payload.writeByte(WireTypes.typeCode(column.type()));
        payload.writeShortLE(WireTypes.flags(column.type(), column.notNull()));
        payload.writeByte(WireTypes.decimals(column.type()));
        payload.writeZero(2);
        if (withDefault) {
            payload.writeByte(0xFB);
        }
    }

    private boolean deprecateEof() {
        return (clientCapabilities & Capabilities.DEPRECATE_EOF) != 0;
    }

    private void writeOk(UpdateResult result) {
        ByteBuf ok = writer.newPayload();
        ok.writeByte(0x00);
        Packets.writeLengthEncodedInteger(ok, result.affectedRows());
        Packets.writeLengthEncodedInteger(ok, result.lastInsertId());
        ok.writeShortLE(session == null ? ServerStatus.AUTOCOMMIT : session.statusFlags());
        ok.writeShortLE(session == null ? 0 : session.warningCount());
        if (!result.info().isEmpty()) {
            // MySQL servers and clients frame the message length-encoded (the protocol docs say string<EOF>).
            Packets.writeLengthEncodedString(ok, result.info());
        }
        writer.write(ok);
    }

    private void writeEof() {
        ByteBuf eof = writer.newPayload();
        eof.writeByte(0xFE);
        eof.writeShortLE(session == null ? 0 : session.warningCount());
        eof.writeShortLE(session == null ? ServerStatus.AUTOCOMMIT : session.statusFlags());
        writer.write(eof);
    }

    private void writeError(DuetException error) {
        ByteBuf payload = writer.newPayload();
        payload.writeByte(0xFF);
        payload.writeShortLE(error.code().errorNumber());
        payload.writeByte('#');
        payload.writeCharSequence(error.code().sqlState(), StandardCharsets.US_ASCII);
        payload.writeCharSequence(String.valueOf(error.getMessage()), StandardCharsets.UTF_8);
        writer.write(payload);
    }

    private void writeErrorAndClose(ChannelHandlerContext context, DuetException error) {
        state = State.CLOSED;
        writeError(error);
        writer.send();
        context.writeAndFlush(context.alloc().buffer(0)).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        Throwable root = cause.getCause() != null ? cause.getCause() : cause;
        if (root instanceof PacketTooLargeException tooLarge) {
            LOG.info("Connection {}: {}; closing it", connectionId, tooLarge.getMessage());
            writer.startReplyTo(frameDecoder.lastSequenceId());
            writeErrorAndClose(context, new DuetException(ErrorCode.PACKET_TOO_LARGE, tooLarge.getMessage()));
        } else if (root instanceof MalformedPacketException malformed) {
            LOG.info("Connection {}: malformed packet ({}); closing it", connectionId, malformed.getMessage());
            writer.startReplyTo(frameDecoder.lastSequenceId());
            writeErrorAndClose(context, new DuetException(ErrorCode.UNKNOWN_COMMAND,
                    "Malformed packet: " + malformed.getMessage()));
        } else {
            LOG.info("Connection {}: {}; closing it", connectionId, root.toString());
            context.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        state = State.CLOSED;
        writer.discard();
        for (QueuedCommand command : queued) {
            command.packet().release();
        }
        queued.clear();
        Session closing = session;
        if (closing != null) {
            statementExecutor.execute(closing::close);
            LOG.info("Connection {} closed", connectionId);
        }
    }

    private static String remoteHost(ChannelHandlerContext context) {
        if (context.channel().remoteAddress() instanceof InetSocketAddress address) {
            return address.getAddress().getHostAddress();
        }
        return "localhost";
    }
}
