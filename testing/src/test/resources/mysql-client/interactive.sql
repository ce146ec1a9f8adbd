status
SELECT 6 * 7 AS answer;
quit
