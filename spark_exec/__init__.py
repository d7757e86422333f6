"""spark_exec: large SELECTs, INSERT ... SELECT and big UPDATE/DELETE on
PySpark. Executors write Parquet parts into Blob; the driver commits the
resulting batch handles through the txns shard.

Not built yet (issue: Spark execution).
"""
