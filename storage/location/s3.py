"""Blob over S3 or any S3-compatible store (MinIO, moto), through boto3.

Keys live under an optional prefix in one bucket. Values at or above
``multipart_threshold`` bytes are uploaded as a multipart upload of
``part_size`` parts (aborted if any part fails, so a failed ``set`` leaves no
object). S3 PUT and CompleteMultipartUpload are atomic, so a reader never
sees part of a value.

boto3 is blocking: every call runs in a worker thread. boto3 clients are
thread-safe; one client is shared.

Error mapping (storage.errors):
* a connection that could not be opened, or a 4xx/5xx response -> determinate
  (S3 applies a PUT/DELETE whole or not at all and said it did not);
* a read timeout or a connection closed after the request was sent on a
  mutating call -> indeterminate. (Reads are always determinate: nothing
  changed.)
"""

from __future__ import annotations

import asyncio
import os
from urllib.parse import parse_qs, urlsplit

from storage.errors import ConfigError, DeterminateError, IndeterminateError, UsageError
from storage.location.blob import Blob, BlobMeta, validate_key

MIB = 1024 * 1024


def _botocore():
    import botocore.config
    import botocore.exceptions

    return botocore


class S3Blob(Blob):
    kind = "s3"

    def __init__(
        self,
        client,
        bucket: str,
        prefix: str = "",
        *,
        multipart_threshold: int = 16 * MIB,
        part_size: int = 8 * MIB,
    ):
        if part_size < 5 * MIB:
            raise UsageError("S3 multipart part_size must be at least 5 MiB")
        self._client = client
        self.bucket = bucket
        self.prefix = prefix
        self.multipart_threshold = multipart_threshold
        self.part_size = part_size

    @classmethod
    async def open(cls, url: str, *, setting: str = "blob") -> "S3Blob":
        """Open ``s3://bucket[/prefix][?endpoint=..&region=..&access_key=..&secret_key=..]``.

        Credentials default to the usual AWS environment/config chain. The
        bucket is checked at open time so a typo or bad credentials fail here
        with a ``ConfigError`` rather than on the first write.
        """
        parts = urlsplit(url)
        bucket = parts.netloc
        if not bucket:
            raise ConfigError(setting, f"{url!r} names no bucket (expected s3://bucket/prefix)")
        prefix = parts.path.strip("/")
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        known = {"endpoint", "region", "access_key", "secret_key", "multipart_threshold_mib", "part_size_mib", "timeout"}
        unknown = sorted(set(query) - known)
        if unknown:
            raise ConfigError(setting, f"unknown S3 option(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        endpoint = query.get("endpoint") or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
        if endpoint and not urlsplit(endpoint).scheme in ("http", "https"):
            raise ConfigError(setting, f"S3 endpoint {endpoint!r} must start with http:// or https://")
        try:
            timeout = float(query.get("timeout", "30"))
            threshold = int(float(query.get("multipart_threshold_mib", "16")) * MIB)
            part_size = int(float(query.get("part_size_mib", "8")) * MIB)
        except ValueError as e:
            raise ConfigError(setting, f"bad number in S3 options: {e}") from e
        region = query.get("region") or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"

        def connect():
            import boto3

            botocore = _botocore()
            session = boto3.session.Session()
            config = botocore.config.Config(
                region_name=region,
                connect_timeout=min(timeout, 10.0),
                read_timeout=timeout,
                retries={"max_attempts": 3, "mode": "standard"},
                max_pool_connections=32,
                s3={"addressing_style": "path"} if endpoint else {},
            )
            client = session.client(
                "s3",
                endpoint_url=endpoint,
                aws_access_key_id=query.get("access_key") or None,
                aws_secret_access_key=query.get("secret_key") or None,
                config=config,
            )
            try:
                client.head_bucket(Bucket=bucket)
            except botocore.exceptions.NoCredentialsError as e:
                raise ConfigError(setting, "no S3 credentials (set access_key/secret_key in the URL or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY)") from e
            except botocore.exceptions.EndpointConnectionError as e:
                raise ConfigError(setting, f"cannot reach S3 endpoint {endpoint or 'AWS'}: {e}") from e
            except botocore.exceptions.ClientError as e:
                code = str(e.response.get("Error", {}).get("Code", ""))
                if code in ("404", "NoSuchBucket", "NotFound"):
                    raise ConfigError(setting, f"bucket {bucket!r} does not exist at {endpoint or 'AWS'}") from e
                if code in ("403", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch"):
                    raise ConfigError(setting, f"access to bucket {bucket!r} denied (check the credentials): {code}") from e
                raise ConfigError(setting, f"cannot open bucket {bucket!r}: {e}") from e
            except botocore.exceptions.BotoCoreError as e:
                raise ConfigError(setting, f"cannot open bucket {bucket!r}: {e}") from e
            return client

        client = await asyncio.to_thread(connect)
        return cls(client, bucket, prefix, multipart_threshold=threshold, part_size=part_size)

    def _object_key(self, key: str) -> str:
        validate_key(key)
        return f"{self.prefix}/{key}" if self.prefix else key

    async def get(self, key: str) -> bytes | None:
        obj = self._object_key(key)

        def fetch() -> bytes | None:
            try:
                resp = self._client.get_object(Bucket=self.bucket, Key=obj)
                return resp["Body"].read()
            except Exception as e:  # noqa: BLE001 - mapped below
                if _is_not_found(e):
                    return None
                raise _map_error(e, f"s3 get {key!r}", mutating=False) from e

        return await asyncio.to_thread(fetch)

    async def set(self, key: str, value: bytes) -> None:
        obj = self._object_key(key)
        value = bytes(value) if not isinstance(value, bytes) else value
        if len(value) >= self.multipart_threshold:
            await self._multipart(key, obj, value)
            return

        def put() -> None:
            try:
                self._client.put_object(Bucket=self.bucket, Key=obj, Body=value)
            except Exception as e:  # noqa: BLE001
                raise _map_error(e, f"s3 set {key!r}", mutating=True) from e

        await asyncio.to_thread(put)

    async def _multipart(self, key: str, obj: str, value: bytes) -> None:
        client = self._client

        def create() -> str:
            try:
                return client.create_multipart_upload(Bucket=self.bucket, Key=obj)["UploadId"]
            except Exception as e:  # noqa: BLE001
                # Nothing is visible until completion, so this is determinate.
                raise _map_error(e, f"s3 set {key!r} (create multipart)", mutating=False) from e

        upload_id = await asyncio.to_thread(create)
        view = memoryview(value)
        chunks = [(n + 1, view[off : off + self.part_size]) for n, off in enumerate(range(0, len(value), self.part_size))]

        def upload(number: int, chunk: memoryview) -> dict:
            resp = client.upload_part(Bucket=self.bucket, Key=obj, UploadId=upload_id, PartNumber=number, Body=bytes(chunk))
            return {"PartNumber": number, "ETag": resp["ETag"]}

        try:
            # A few parts in flight at once: S3 throughput scales with them.
            sem = asyncio.Semaphore(4)

            async def one(number: int, chunk: memoryview) -> dict:
                async with sem:
                    return await asyncio.to_thread(upload, number, chunk)

            parts = await asyncio.gather(*(one(n, c) for n, c in chunks))
        except BaseException as e:
            await asyncio.to_thread(self._abort, obj, upload_id)
            if isinstance(e, Exception):
                raise _map_error(e, f"s3 set {key!r} (upload part)", mutating=False) from e
            raise

        def complete() -> None:
            try:
                client.complete_multipart_upload(
                    Bucket=self.bucket, Key=obj, UploadId=upload_id, MultipartUpload={"Parts": parts}
                )
            except Exception as e:  # noqa: BLE001
                mapped = _map_error(e, f"s3 set {key!r} (complete multipart)", mutating=True)
                if mapped.determinate:
                    self._abort(obj, upload_id)
                raise mapped from e

        await asyncio.to_thread(complete)

    def _abort(self, obj: str, upload_id: str) -> None:
        try:
            self._client.abort_multipart_upload(Bucket=self.bucket, Key=obj, UploadId=upload_id)
        except Exception:  # noqa: BLE001 - best effort; S3 lifecycle rules clean the rest
            pass

    async def delete(self, key: str) -> int | None:
        obj = self._object_key(key)

        def remove() -> int | None:
            try:
                size = self._client.head_object(Bucket=self.bucket, Key=obj)["ContentLength"]
            except Exception as e:  # noqa: BLE001
                if _is_not_found(e):
                    return None
                raise _map_error(e, f"s3 delete {key!r}", mutating=False) from e
            try:
                self._client.delete_object(Bucket=self.bucket, Key=obj)
            except Exception as e:  # noqa: BLE001
                raise _map_error(e, f"s3 delete {key!r}", mutating=True) from e
            return size

        return await asyncio.to_thread(remove)

    async def adopt(self, staged: str, key: str) -> None:
        """A server-side copy (the bytes never pass through this process;
        S3 copies objects up to 5 GB in one request), then the staged
        object is deleted. A writer outside txngate reaches ``staged`` as
        ``s3a://<bucket>/<prefix>/<staged>`` (Spark's S3A connector)."""
        src, dst = self._object_key(staged), self._object_key(key)

        def copy() -> bool:
            try:
                self._client.copy_object(Bucket=self.bucket, Key=dst, CopySource={"Bucket": self.bucket, "Key": src})
                return True
            except Exception as e:  # noqa: BLE001
                if _is_not_found(e):
                    return False
                raise _map_error(e, f"s3 adopt {staged!r} as {key!r}", mutating=True) from e

        if not await asyncio.to_thread(copy):
            if await self.get(key) is not None:
                return  # adopted already
            raise UsageError(f"s3 adopt: nothing at {staged!r}")
        await self.delete(staged)

    async def list(self, prefix: str = "") -> list[BlobMeta]:
        full = f"{self.prefix}/{prefix}" if self.prefix else prefix
        strip = len(self.prefix) + 1 if self.prefix else 0

        def fetch() -> list[BlobMeta]:
            out: list[BlobMeta] = []
            try:
                paginator = self._client.get_paginator("list_objects_v2")
                for page in paginator.paginate(Bucket=self.bucket, Prefix=full):
                    for item in page.get("Contents", []):
                        out.append(BlobMeta(item["Key"][strip:], item["Size"]))
            except Exception as e:  # noqa: BLE001
                raise _map_error(e, f"s3 list {prefix!r}", mutating=False) from e
            out.sort()
            return out

        return await asyncio.to_thread(fetch)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await asyncio.to_thread(client.close)


def _is_not_found(e: Exception) -> bool:
    botocore = _botocore()
    if isinstance(e, botocore.exceptions.ClientError):
        code = str(e.response.get("Error", {}).get("Code", ""))
        return code in ("404", "NoSuchKey", "NotFound")
    return False


def _map_error(e: Exception, what: str, *, mutating: bool):
    """Map a boto3/botocore exception onto the storage error types."""
    botocore = _botocore()
    exc = botocore.exceptions
    if isinstance(e, (exc.EndpointConnectionError, exc.ConnectTimeoutError)):
        return DeterminateError(f"{what}: cannot connect: {e}")
    if isinstance(e, exc.ClientError):
        return DeterminateError(f"{what}: {e}")
    if mutating and isinstance(e, (exc.ReadTimeoutError, exc.ConnectionClosedError, exc.ResponseStreamingError)):
        return IndeterminateError(f"{what}: no answer after sending: {e}")
    if isinstance(e, (exc.BotoCoreError, OSError)):
        if mutating:
            return IndeterminateError(f"{what}: {e}")
        return DeterminateError(f"{what}: {e}")
    if mutating:
        return IndeterminateError(f"{what}: unexpected {type(e).__name__}: {e}")
    return DeterminateError(f"{what}: unexpected {type(e).__name__}: {e}")
