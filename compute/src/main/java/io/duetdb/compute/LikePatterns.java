package io.duetdb.compute;

import java.util.regex.Pattern;

/** MySQL LIKE patterns as regular expressions: % any run, _ one character, backslash escapes the next one. */
public final class LikePatterns {
    private LikePatterns() {
    }

    public static Pattern compile(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
