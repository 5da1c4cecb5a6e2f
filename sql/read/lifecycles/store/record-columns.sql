-- The names of `GET /v1/alpha/positions/{address}/{id}`'s record columns, in order (alpha_record_shape
-- without last_seq): the lifecycle store writes records as arrays in this order
-- (sql/read/lifecycles/store/lifecycle-docs.sql) and keeps the names in its manifest. No parameters.
SELECT column_name
FROM (DESCRIBE SELECT * EXCLUDE (last_seq) FROM alpha_record_shape('lifecycles'));
