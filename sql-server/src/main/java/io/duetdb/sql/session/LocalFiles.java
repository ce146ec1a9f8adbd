package io.duetdb.sql.session;

import java.io.InputStream;
import io.duetdb.common.error.DuetException;
import io.duetdb.common.error.ErrorCode;

/**
 * Files a client sends for LOAD DATA LOCAL INFILE (the MySQL protocol's local-infile exchange): the connection asks
 * the client for the named file and streams what it sends. Closing the stream reads (and drops) whatever the client
 * still sends, so the connection stays in step when a statement stops early.
 */
public interface LocalFiles {
    LocalFiles NONE = name -> {
        throw new DuetException(ErrorCode.LOCAL_INFILE_DISABLED,
                "Loading local data is disabled; this must be enabled on both the client and server sides");
    };

    InputStream open(String name);
}
