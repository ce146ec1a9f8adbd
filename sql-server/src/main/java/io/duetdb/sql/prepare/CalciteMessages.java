package io.duetdb.sql.prepare;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteResource;
import org.apache.calcite.runtime.Resources;

/**
 * Which of Calcite's messages a validator error carries, and its arguments: each message of
 * {@link CalciteResource} is read from its template (a MessageFormat pattern) into a regular expression, so that
 * {@code Column 'x' not found in table 't'} is {@code columnNotFoundInTable} with arguments x and t.
 */
final class CalciteMessages {
    /** A message of resource {@code resource} with its arguments in order. */
    record Match(String resource, List<String> arguments) {
        Match {
            requireNonNull(resource, "resource is null");
            arguments = List.copyOf(requireNonNull(arguments, "arguments is null"));
        }

        String argument(int index) {
            return index < arguments.size() ? arguments.get(index) : "";
        }
    }

    private record Template(String resource, Pattern pattern, int literalLength) {
    }

    private static final List<Template> TEMPLATES = templates();

    private CalciteMessages() {
    }

    /** The resource whose template the message matches (the longest one when several do). */
    static Optional<Match> match(String message) {
        Template best = null;
        Matcher bestMatcher = null;
        for (Template template : TEMPLATES) {
            Matcher matcher = template.pattern().matcher(message);
            if (matcher.matches() && (best == null || template.literalLength() > best.literalLength())) {
                best = template;
                bestMatcher = matcher;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        List<String> arguments = new ArrayList<>();
        for (int group = 1; group <= bestMatcher.groupCount(); group++) {
            arguments.add(bestMatcher.group(group));
        }
        return Optional.of(new Match(best.resource(), arguments));
    }

    private static List<Template> templates() {
        List<Template> templates = new ArrayList<>();
        for (Method method : CalciteResource.class.getMethods()) {
            Resources.BaseMessage message = method.getAnnotation(Resources.BaseMessage.class);
            if (message != null) {
                templates.add(template(method.getName(), message.value()));
            }
        }
        return List.copyOf(templates);
    }

    /** A MessageFormat pattern as a regular expression: '' is a quote, '...' quoted text, {n,...} an argument. */
    static Template template(String resource, String format) {
        StringBuilder regex = new StringBuilder();
        int literalLength = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c == '\'') {
                if (i + 1 < format.length() && format.charAt(i + 1) == '\'') {
                    regex.append(Pattern.quote("'"));
                    literalLength++;
                    i += 2;
                } else {
                    int end = format.indexOf('\'', i + 1);
                    end = end < 0 ? format.length() : end;
                    regex.append(Pattern.quote(format.substring(i + 1, end)));
                    literalLength += end - i - 1;
                    i = end + 1;
                }
            } else if (c == '{') {
                int end = format.indexOf('}', i);
                end = end < 0 ? format.length() : end;
                regex.append("(.*?)");
                i = end + 1;
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
                literalLength++;
                i++;
            }
        }
        return new Template(resource, Pattern.compile(regex.toString(), Pattern.DOTALL), literalLength);
    }
}
